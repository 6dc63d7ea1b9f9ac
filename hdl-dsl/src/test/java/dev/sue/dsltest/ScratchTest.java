package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.emit.DesignWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ScratchTest {
    static final class And extends Component {
        final Bool a = in(bool());
        final Bool b = in(bool());
        final Bool y = out(bool());

        And() {
            y.set(a.and(b));
            assertThat(y.or(a), "never 100% full, \\n done");
        }
    }

    @Test
    void t() {
        new DesignWriter().write(Emit.design(And::new), Path.of("/tmp/probe"));
    }
}
