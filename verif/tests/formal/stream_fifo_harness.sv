// Formal harness for a generated stream_fifo (test_formal.py).
//
// Every input is free except where assumed: the harness starts in reset and its source keeps
// the stream rules (valid and payload held while stalled). The FIFO's own assertions (both
// stream sides, full/empty, pointers) are checked as they are; with CHECK_ORDER the harness
// also checks that the words come out in the order they went in (tracked-word check).
//
// Defines: DUT (the FIFO's module name), WIDTH (payload bits), DEPTH (entries);
// CHECK_ORDER; ORDER_MUTANT (expects the tracked word one pop late: must fail);
// NO_STALL_ASSUMPTION (the source may drop valid while stalled: the FIFO's input assertion must fail).
`default_nettype none

module stream_fifo_harness (
    input wire logic              clk,
    input wire logic              rst,
    input wire logic              s_valid,
    input wire logic [`WIDTH-1:0] s_payload,
    input wire logic              m_ready
);
    localparam int OCC_W = $clog2(`DEPTH + 1);

    logic              s_ready;
    logic              m_valid;
    logic [`WIDTH-1:0] m_payload;
    logic [OCC_W-1:0]  occupancy;
    logic              almost_full;

    `DUT dut (
        .clk, .rst, .s_valid, .s_ready, .s_payload, .m_valid, .m_ready, .m_payload, .occupancy, .almost_full
    );

    logic started;
    starts_in_reset start (.clk, .rst, .started);
`ifdef NO_STALL_ASSUMPTION
    localparam bit HOLD = 1'b0;
`else
    localparam bit HOLD = 1'b1;
`endif
    stream_source_rules #(.WIDTH(`WIDTH), .HOLD_WHILE_STALLED(HOLD)) source (
        .clk, .rst, .valid(s_valid), .ready(s_ready), .payload(s_payload)
    );

`ifdef CHECK_ORDER
    // Pushes and pops since reset; the word pushed as number `tracked` (any, chosen by the
    // solver) must be the one popped as number `tracked`.
    localparam int COUNT_W = 8;
    logic [COUNT_W-1:0] pushed, popped;
    (* anyconst *) logic [COUNT_W-1:0] tracked;
    logic [`WIDTH-1:0] tracked_word;
    wire push = s_valid && s_ready;
    wire pop = m_valid && m_ready;
    always @(posedge clk) begin
        if (rst) begin
            pushed <= '0;
            popped <= '0;
        end else begin
            pushed <= pushed + COUNT_W'(push);
            popped <= popped + COUNT_W'(pop);
        end
        if (!rst && push && pushed == tracked) tracked_word <= s_payload;
    end
`ifdef ORDER_MUTANT
    wire [COUNT_W-1:0] expected_at = tracked + 1'b1;
`else
    wire [COUNT_W-1:0] expected_at = tracked;
`endif
    always @(posedge clk) begin
        if (started && !rst) begin
            occupancy_counts: assert (OCC_W'(pushed - popped) == occupancy);
            if (pop && popped == expected_at) in_order: assert (m_payload == tracked_word);
        end
    end
`endif
endmodule
