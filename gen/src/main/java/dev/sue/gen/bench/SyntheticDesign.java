// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.bench;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/** Benchmark top: {@code lanes} distinct {@link SyntheticLane}s whose results are XOR-reduced. */
public final class SyntheticDesign extends Component {
    public final Bool valid = in(bool());
    public final UInt data = in(uint(32));
    public final UInt result = out(uint(32));
    private final List<SyntheticLane> laneList = new ArrayList<>();

    public SyntheticDesign(int lanes, int stages) {
        param("lanes", lanes);
        param("stages", stages);
        UInt acc = null;
        for (int i = 0; i < lanes; i++) {
            int seed = i;
            SyntheticLane lane = instance("lane" + i, () -> new SyntheticLane(seed, 32, stages));
            lane.valid.set(valid);
            lane.data.set(data);
            acc = acc == null ? lane.result : acc.xor(lane.result);
            laneList.add(lane);
        }
        result.set(acc);
    }
}
