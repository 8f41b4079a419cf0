"""Stage `bundle`: entry families, their regions and context bundles on disk."""
