"""loom regress: kernels x stall seeds as a pytest suite (sharded, parallel with xdist)."""
