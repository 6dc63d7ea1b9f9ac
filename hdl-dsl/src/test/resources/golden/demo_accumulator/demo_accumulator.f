alu.sv
demo_accumulator.sv
