// loom_mem_model: simulation-only memory behind one handshake.extmemory
// master port (hand-written, no template parameters beyond the module's).
//
// A request beat carries at most one read (req_re, req_raddr) and one write
// (req_we, req_waddr, req_wdata), as a simple dual-port memory takes them.
// Beats are accepted under seeded random backpressure; both accesses take
// effect at acceptance, the read first (it sees the element before the
// beat's write); every beat gets one response, in beat order, after a
// seeded random latency of 1..max_latency cycles (its read data, else 0).
// Every access is thus performed at one point, in request order, as "done
// means ordered" (design.md) requires of the storage: a read served at
// response time would see a later write (WAR). Contents are loaded from +loom_mem_<NAME>=<file>
// ($readmemh) and written to +loom_memout_<NAME>=<file> when `dump` rises.
// Plusargs: +loom_seed=<n>, +loom_mem_ready_pct=<0..100>,
// +loom_mem_max_latency=<n>. Out-of-range addresses are reported and flagged.
// +loom_mem_elements_<NAME>=<n> narrows the range to the first n elements and
// dumps only those (a fabric's memory is built once, larger than any kernel's).
module loom_mem_model #(
  parameter int DEPTH = 16,
  parameter int W = 32,
  parameter int AW = 4,
  parameter int SALT = 1,
  parameter string NAME = "mem"
) (
  input  logic clk,
  input  logic rst,
  input  logic req_valid,
  output logic req_ready,
  input  logic req_re,
  input  logic [AW-1:0] req_raddr,
  input  logic req_we,
  input  logic [AW-1:0] req_waddr,
  input  logic [W-1:0] req_wdata,
  output logic resp_valid,
  input  logic resp_ready,
  output logic [W-1:0] resp_data,
  input  logic dump,
  output logic error
);
  localparam int QD = 64;
  logic [W-1:0] mem [DEPTH];
  logic [W-1:0] q_data [QD];
  longint unsigned q_due [QD];
  int unsigned head, tail, count;
  longint unsigned cycle;
  logic [31:0] rnd;
  int unsigned ready_pct, max_latency, elements;
  logic dump_q;
  string out_path;

  initial begin
    string in_path;
    int unsigned seed;
    for (int i = 0; i < DEPTH; i++) mem[i] = '0;
    if ($value$plusargs({"loom_mem_", NAME, "=%s"}, in_path))
      $readmemh(in_path, mem);
    if (!$value$plusargs({"loom_memout_", NAME, "=%s"}, out_path))
      out_path = "";
    if (!$value$plusargs("loom_seed=%d", seed)) seed = 1;
    if (!$value$plusargs("loom_mem_ready_pct=%d", ready_pct)) ready_pct = 70;
    if (!$value$plusargs("loom_mem_max_latency=%d", max_latency)) max_latency = 4;
    if (max_latency < 1) max_latency = 1;
    if (!$value$plusargs({"loom_mem_elements_", NAME, "=%d"}, elements) || elements > DEPTH)
      elements = DEPTH;
    rnd = (seed * 32'h9E3779B1) ^ (SALT * 32'h85EBCA6B) ^ 32'h2545F491;
    if (rnd == 0) rnd = 32'h1;
  end

  function automatic logic [31:0] xorshift(input logic [31:0] x);
    logic [31:0] y;
    y = x ^ (x << 13);
    y = y ^ (y >> 17);
    return y ^ (y << 5);
  endfunction

  logic ready_q;
  assign req_ready = ready_q && count < QD;
  assign resp_valid = count > 0 && q_due[head] <= cycle;
  assign resp_data = q_data[head];

  always_ff @(posedge clk) begin
    if (rst) begin
      head <= 0;
      tail <= 0;
      count <= 0;
      cycle <= 0;
      ready_q <= 1'b0;
      error <= 1'b0;
      dump_q <= 1'b0;
    end else begin
      int unsigned pushed, popped, latency;
      longint unsigned due;
      pushed = 0;
      popped = 0;
      cycle <= cycle + 1;
      rnd <= xorshift(rnd);
      ready_q <= (rnd % 100) < ready_pct;
      if (req_valid && req_ready) begin
        latency = 32'd1 + ((rnd >> 8) % max_latency);
        due = cycle + {32'd0, latency};
        if (count > 0 && q_due[(tail + QD - 1) % QD] > due)
          due = q_due[(tail + QD - 1) % QD];   // responses stay in request order
        q_data[tail] <= '0;
        if (req_re) begin
          if (longint'(req_raddr) >= longint'(elements)) begin
            $display("loom_mem_model %s: read address %0d outside %0d elements", NAME, req_raddr, elements);
            error <= 1'b1;
          end else
            q_data[tail] <= mem[req_raddr];
        end
        if (req_we) begin
          if (longint'(req_waddr) >= longint'(elements)) begin
            $display("loom_mem_model %s: write address %0d outside %0d elements", NAME, req_waddr, elements);
            error <= 1'b1;
          end else
            mem[req_waddr] <= req_wdata;
        end
        q_due[tail] <= due;
        tail <= (tail + 1) % QD;
        pushed = 1;
      end
      if (resp_valid && resp_ready) begin
        head <= (head + 1) % QD;
        popped = 1;
      end
      count <= count + pushed - popped;
      dump_q <= dump;
      if (dump && !dump_q && out_path != "" && elements > 0)
        $writememh(out_path, mem, 0, elements - 1);
    end
  end
endmodule
