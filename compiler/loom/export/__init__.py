"""The RTL drop-in (issue 34): the kernel inside an AXI shell, as an IP folder.

register_map is the one model of the control registers (Vitis HLS's
ap_ctrl_hs layout); csr renders it as SystemRDL and runs PeakRDL on it
(regblock, cheader, html); shell renders the AXI top around the kernel;
package writes the folder (`loom export`) with the C driver and README.
"""
