sync_bit.sv
two_domain_bridge.sv
