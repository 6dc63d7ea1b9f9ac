// Formal harness for the generated credit_link fixture (test_formal.py): the harness plays the
// link and the receive buffer around a CreditSender and a CreditReceiver and checks credit
// conservation: credits held by the sender + beats on the link + slots in use at the receiver
// + freed slots whose credit has not gone back + credits on the way back == CAPACITY.
//
// The link delivers each beat sent after any delay (one per cycle at most, the receiver's
// `received` is a bit) and returns credits after any delay, at most MAX_RETURN a cycle; the
// buffer frees any number of slots in use, at most MAX_FREE a cycle. All of that is chosen by
// the solver, constrained only by those rules and the stream rules on the sender's input.
//
// Defines: DUT (the fixture's module name), CAPACITY, MAX_RETURN, MAX_FREE;
// CONSERVATION_MUTANT (expects CAPACITY + 1 in total: must fail);
// LEAKY_LINK (the link may lose a returned credit: conservation must fail);
// VALID_IN_RESET (the source may raise valid in reset: the sender's in-reset assertion must fail).
`default_nettype none

module credit_link_harness (
    input wire logic        clk,
    input wire logic        rst,
    input wire logic        s_valid,
    input wire logic [31:0] s_payload,
    input wire logic        m_ready,
    input wire logic        deliver,      // the link hands a beat to the receiver
    input wire logic [15:0] return_now,   // credits the link hands back to the sender
    input wire logic [15:0] free_now,     // slots the buffer frees
    input wire logic        lose_credit   // LEAKY_LINK only
);
    localparam int CREDIT_W = $clog2(`CAPACITY + 1);
    localparam int RETURN_W = $clog2(`MAX_RETURN + 1);
    localparam int FREE_W = $clog2(`MAX_FREE + 1);

    logic                s_ready;
    logic                m_valid;
    logic [31:0]         m_payload;
    logic [CREDIT_W-1:0] tx_credits;
    logic [RETURN_W-1:0] rx_credits_returned;
    logic [CREDIT_W-1:0] rx_occupancy;
    logic [CREDIT_W-1:0] rx_pending;

    // Beats and credits on the link.
    logic [15:0] beats_on_link;
    logic [15:0] credits_on_link;

    wire sent = m_valid && m_ready;
    wire rx_received = deliver;
    wire [RETURN_W-1:0] tx_credits_returned = RETURN_W'(return_now);
    wire [FREE_W-1:0] rx_freed = FREE_W'(free_now);

    `DUT dut (
        .clk, .rst, .rx_received, .s_valid, .s_ready, .s_payload, .m_valid, .m_ready, .m_payload,
        .tx_credits_returned, .tx_credits, .rx_freed, .rx_credits_returned, .rx_occupancy, .rx_pending
    );

    logic started;
    starts_in_reset start (.clk, .rst, .started);
    stream_source_rules #(.WIDTH(32)) source (.clk, .rst, .valid(s_valid), .ready(s_ready), .payload(s_payload));
`ifndef VALID_IN_RESET
    // The source keeps valid low in reset: the sender passes it straight through.
    always @(*) if (rst) assume (!s_valid);
`endif

    // The link delivers only beats it carries and returns only credits it carries; the
    // buffer frees only slots in use.
    always @(*) begin
        assume (!deliver || beats_on_link != 0);
        assume (return_now <= `MAX_RETURN && return_now <= credits_on_link);
        assume (free_now <= `MAX_FREE && free_now <= 16'(rx_occupancy));
    end

`ifdef LEAKY_LINK
    wire lost = lose_credit && credits_on_link > 16'(return_now);
`else
    wire lost = 1'b0;
`endif
    always @(posedge clk) begin
        if (rst) begin
            beats_on_link <= '0;
            credits_on_link <= '0;
        end else begin
            beats_on_link <= beats_on_link + 16'(sent) - 16'(deliver);
            credits_on_link <= credits_on_link + 16'(rx_credits_returned) - return_now - 16'(lost);
        end
    end

`ifdef CONSERVATION_MUTANT
    localparam int TOTAL = `CAPACITY + 1;
`else
    localparam int TOTAL = `CAPACITY;
`endif
    wire [31:0] credits_total = 32'(tx_credits) + 32'(beats_on_link) + 32'(rx_occupancy) + 32'(rx_pending)
            + 32'(credits_on_link);
    always @(posedge clk) begin
        if (started && !rst) conserved: assert (credits_total == TOTAL);
    end
endmodule
