request_fsm.sv
