// A composition's register port (issue 21's address maps): the APB answer
// of the window the address falls in (rtl/<composition>_map_pkg.sv's
// win_of), an address error where no block has a window, and one interrupt
// for all. mem_subsystem and innet_switch use it; a composition's C++ model
// answers the same way (hw/common/compose.h).
module t3_apb_mux #(
  parameter int unsigned N_WIN = 1  // windows, 1..16
) (
  input  logic                        psel_i,
  input  logic                        penable_i,
  input  logic [N_WIN-1:0]            win_hit_i,  // one-hot, or 0: no window
  input  logic [N_WIN*32-1:0]         prdata_i,   // window w's at [w*32 +: 32]
  input  logic [N_WIN-1:0]            pready_i,
  input  logic [N_WIN-1:0]            pslverr_i,
  input  logic [N_WIN-1:0]            intr_i,
  output logic [31:0]                 prdata_o,
  output logic                        pready_o,
  output logic                        pslverr_o,
  output logic                        intr_o
);

  if (N_WIN < 1 || N_WIN > 16) begin : g_bad_n_win
    $error("N_WIN = %0d is out of range; allowed: 1..16", N_WIN);
  end

  always_comb begin
    prdata_o  = '0;
    pslverr_o = 1'b0;
    pready_o  = 1'b1;
    for (int w = 0; w < N_WIN; w++)
      if (win_hit_i[w]) begin
        prdata_o  = prdata_i[w*32 +: 32];
        pslverr_o = pslverr_i[w];
        pready_o  = pready_i[w];
      end
    // No block's window: an address error.
    if (win_hit_i == '0) pslverr_o = psel_i && penable_i;
    intr_o = |intr_i;
  end

endmodule
