// Assumptions shared by the formal harnesses of test_formal.py.
`default_nettype none

// The run starts with a reset cycle (before it the design's state is arbitrary); `started` is
// low in that first cycle only.
module starts_in_reset (
    input  wire logic clk,
    input  wire logic rst,
    output logic      started
);
    initial started = 1'b0;
    always @(posedge clk) started <= 1'b1;
    always @(*) if (!started) assume (rst);
endmodule

// A stream source that keeps the rules: once valid and not ready outside reset, valid and the
// payload hold in the next cycle. Without HOLD_WHILE_STALLED (a mutant) it may break them.
module stream_source_rules #(
    parameter int WIDTH = 1,
    parameter bit HOLD_WHILE_STALLED = 1'b1
) (
    input wire logic             clk,
    input wire logic             rst,
    input wire logic             valid,
    input wire logic             ready,
    input wire logic [WIDTH-1:0] payload
);
    logic             stalled_q;
    logic [WIDTH-1:0] payload_q;
    always @(posedge clk) begin
        stalled_q <= !rst && valid && !ready;
        payload_q <= payload;
    end
    always @(*) if (HOLD_WHILE_STALLED && stalled_q && !rst) assume (valid && payload == payload_q);
endmodule
