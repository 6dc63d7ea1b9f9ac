// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

/**
 * Writes a {@link RegisterMap} as a Python module testbenches and scripts import instead of
 * copying addresses: one class per block, one {@code Register} per register with its byte
 * address, fields, resets and legal ranges, and {@code pack}/{@code unpack} by field name.
 */
public final class PythonRegsWriter {
    private PythonRegsWriter() {
    }

    public static String write(RegisterMap map, String header) {
        StringBuilder s = new StringBuilder();
        for (String line : header.split("\n")) {
            s.append("# ").append(line).append('\n');
        }
        s.append("\"\"\"Register map of ").append(map.name()).append(": ").append(escape(map.doc())).append("\n\n");
        s.append("Byte addresses (an AXI4-Lite address); word address = byte address // 4.\n\"\"\"\n\n");
        s.append(RUNTIME);
        s.append("\nNAME = \"").append(map.name()).append("\"\n");
        s.append("BYTE_ADDRESS_BITS = ").append(map.addrBits() + 2).append("\n");
        for (RegisterMap.Placement p : map.blocks()) {
            RegisterBlockSpec b = p.block();
            s.append("\n\nclass ").append(b.name()).append(":\n");
            s.append("    \"\"\"").append(escape(b.doc())).append("\"\"\"\n\n");
            s.append("    BASE = 0x").append(Long.toHexString(p.base() * RegisterSpec.WORD_BYTES)).append('\n');
            s.append("    BYTES = 0x").append(Long.toHexString(b.words() * RegisterSpec.WORD_BYTES)).append('\n');
            for (RegisterSpec r : b.registers()) {
                s.append("    ").append(r.name()).append(" = Register(\"").append(b.name()).append('_')
                        .append(r.name()).append("\", 0x")
                        .append(Long.toHexString((p.base() + r.offset()) * RegisterSpec.WORD_BYTES))
                        .append(", ").append(r.count()).append(", \"").append(escape(r.doc())).append("\", (\n");
                for (FieldSpec f : r.fields()) {
                    s.append("        Field(\"").append(f.name()).append("\", ").append(f.lsb()).append(", ")
                            .append(f.width()).append(", \"").append(f.access().code()).append("\", ")
                            .append(f.reset() == null ? "None" : Long.toString(f.reset())).append(", ")
                            .append(f.min()).append(", ").append(f.max()).append("),\n");
                }
                s.append("    )").append(r.stride() == 1 ? "" : ", stride=" + r.stride() * RegisterSpec.WORD_BYTES)
                        .append(")\n");
            }
        }
        s.append("\n\nBLOCKS = (");
        for (RegisterMap.Placement p : map.blocks()) {
            s.append(p.block().name()).append(", ");
        }
        s.append(")\n");
        s.append("REGISTERS = tuple(r for b in BLOCKS for r in vars(b).values() if isinstance(r, Register))\n");
        return s.toString();
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static final String RUNTIME = """
            from dataclasses import dataclass


            @dataclass(frozen=True)
            class Field:
                name: str
                lsb: int
                width: int
                access: str  # rw, ro, wo, w1c
                reset: int | None
                min: int
                max: int

                @property
                def mask(self) -> int:
                    return ((1 << self.width) - 1) << self.lsb


            @dataclass(frozen=True)
            class Register:
                name: str
                address: int  # byte address of entry 0
                count: int  # 1, or the entries of a table
                description: str
                fields: tuple
                stride: int = 4  # bytes from one entry of a table to the next

                def at(self, index: int) -> int:
                    \"\"\"Byte address of entry ``index`` of a table.\"\"\"
                    if not 0 <= index < self.count:
                        raise IndexError(f"{self.name} has {self.count} entries, not {index}")
                    return self.address + self.stride * index

                def field(self, name: str) -> Field:
                    for f in self.fields:
                        if f.name == name:
                            return f
                    raise KeyError(f"{self.name} has no field {name}")

                @property
                def reset(self) -> int:
                    return sum((f.reset or 0) << f.lsb for f in self.fields)

                def pack(self, **values: int) -> int:
                    \"\"\"The word with the named fields set (others 0); a value too wide is an error.\"\"\"
                    word = 0
                    for name, value in values.items():
                        f = self.field(name)
                        if not 0 <= value < (1 << f.width):
                            raise ValueError(f"{self.name}.{name} is {f.width} bits, {value} does not fit")
                        word |= value << f.lsb
                    return word

                def unpack(self, word: int) -> dict:
                    return {f.name: (word >> f.lsb) & ((1 << f.width) - 1) for f in self.fields}
            """;
}
