"""Many libraries × revisions mined as one job: every TU of every revision in one parse queue."""
