// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The register map of a design: blocks placed at word bases of one address space. The one source
 * the hardware decode ({@code lib.regif}) and every export (JSON, SystemRDL, Python, Markdown) are
 * made from. Addresses: a word address {@code w} is the byte address {@code 4w} on an AXI4-Lite
 * bus; the exports give both.
 *
 * @param name     identifier of the map (the design)
 * @param doc      one sentence
 * @param addrBits word address bits of the whole space
 * @param blocks   never overlapping, each aligned to its own window
 */
public record RegisterMap(String name, String doc, int addrBits, List<Placement> blocks) {
    /** A block at a word base (a multiple of its window). */
    public record Placement(long base, RegisterBlockSpec block) {
    }

    /** A register with its absolute word address, as the exports list it. */
    public record Located(RegisterBlockSpec block, RegisterSpec register, long wordAddress) {
        /** {@code block_register}, unique in the map. */
        public String qualifiedName() {
            return block.name() + "_" + register.name();
        }

        public long byteAddress() {
            return wordAddress * RegisterSpec.WORD_BYTES;
        }
    }

    public RegisterMap {
        Names.check("register map", name);
        if (addrBits < 1 || addrBits > 30) {
            throw new IllegalArgumentException("register map " + name + " needs 1..30 address bits, got " + addrBits);
        }
        blocks = List.copyOf(blocks);
        List<Placement> sorted = new ArrayList<>(blocks);
        sorted.sort(Comparator.comparingLong(Placement::base));
        for (int i = 0; i < sorted.size(); i++) {
            Placement p = sorted.get(i);
            long words = p.block().words();
            if (p.base() < 0 || p.base() % words != 0 || p.base() + words > (1L << addrBits)) {
                throw new IllegalArgumentException(String.format("block %s at word 0x%X is not aligned to its %d words "
                        + "or lies outside the map's %d address bits", p.block().name(), p.base(), words, addrBits));
            }
            if (i > 0) {
                Placement prev = sorted.get(i - 1);
                if (prev.base() + prev.block().words() > p.base()) {
                    throw new IllegalArgumentException(String.format("blocks %s and %s overlap at word 0x%X",
                            prev.block().name(), p.block().name(), p.base()));
                }
            }
            for (int j = 0; j < i; j++) {
                if (sorted.get(j).block().name().equals(p.block().name())) {
                    throw new IllegalArgumentException("register map " + name + " has two blocks named "
                            + p.block().name());
                }
            }
        }
    }

    /** Every register in address order. */
    public List<Located> registers() {
        List<Located> out = new ArrayList<>();
        for (Placement p : blocks) {
            for (RegisterSpec r : p.block().registers()) {
                out.add(new Located(p.block(), r, p.base() + r.offset()));
            }
        }
        out.sort(Comparator.comparingLong(Located::wordAddress));
        return out;
    }

    /** The map as JSON-ready ordered maps: blocks, registers and fields with every property. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("description", doc);
        m.put("word_bits", RegisterSpec.WORD_BITS);
        m.put("address_unit", "byte (word address x " + RegisterSpec.WORD_BYTES + ")");
        m.put("byte_address_bits", addrBits + 2);
        List<Object> bl = new ArrayList<>();
        for (Placement p : blocks) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("name", p.block().name());
            b.put("description", p.block().doc());
            b.put("byte_address", p.base() * RegisterSpec.WORD_BYTES);
            b.put("bytes", p.block().words() * RegisterSpec.WORD_BYTES);
            List<Object> regs = new ArrayList<>();
            for (RegisterSpec r : p.block().registers()) {
                Map<String, Object> rj = new LinkedHashMap<>();
                rj.put("name", r.name());
                rj.put("byte_address", (p.base() + r.offset()) * RegisterSpec.WORD_BYTES);
                rj.put("word_address", p.base() + r.offset());
                rj.put("count", r.count());
                rj.put("stride_bytes", r.stride() * RegisterSpec.WORD_BYTES);
                rj.put("description", r.doc());
                rj.put("reset", r.resetWord());
                List<Object> fl = new ArrayList<>();
                for (FieldSpec f : r.fields()) {
                    Map<String, Object> fj = new LinkedHashMap<>();
                    fj.put("name", f.name());
                    fj.put("lsb", f.lsb());
                    fj.put("width", f.width());
                    fj.put("access", f.access().code());
                    fj.put("reset", f.reset());
                    fj.put("min", f.min());
                    fj.put("max", f.max());
                    fj.put("description", f.doc());
                    fl.add(fj);
                }
                rj.put("fields", fl);
                regs.add(rj);
            }
            b.put("registers", regs);
            bl.add(b);
        }
        m.put("blocks", bl);
        return m;
    }
}
