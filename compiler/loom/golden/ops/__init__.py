"""golden/ops."""
