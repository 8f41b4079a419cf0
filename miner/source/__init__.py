"""Stage `source`: a checkout (directory or git), its library profile and its files."""
