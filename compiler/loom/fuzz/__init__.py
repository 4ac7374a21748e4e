"""Random C kernels through every stage (`loom fuzz`): a generator of UB-free
programs in the supported subset (generator), one program's run and
outcome (campaign), the command (command), and shrinking a failing program
with C-Vise (reduce, interesting). docs/design.md section 7.
"""
