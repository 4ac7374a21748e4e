"""LOOM-py: C loop kernels to verified elastic dataflow hardware."""

__version__ = "0.1.0"
