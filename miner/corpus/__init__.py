"""The corpus stage: QA records, implementation samples and verify attempts merged into one Parquet dataset with a
card, near-duplicates and evaluation overlaps removed and counted, split by kernel family."""
