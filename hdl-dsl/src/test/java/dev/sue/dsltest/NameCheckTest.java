// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unnamed registers and ports, keywords, illegal identifiers, duplicate names. */
class NameCheckTest {
    private static String at(String mark) {
        return Marks.at(NameCheckTest.class, mark);
    }

    static final class Unnamed extends Component {
        final UInt a = in(uint(4));
        final UInt y = out(uint(4));
        final UInt z = out(uint(4));

        Unnamed() {
            UInt r = reg(uint(4)); // MARK:unnamed-reg
            r.set(a);
            y.set(r);
            z.set(regNext(a.add(1))); // MARK:unnamed-derived
        }
    }

    @Test
    void aRegisterMustHaveAName() {
        List<HdlError> errors = Errors.of(Unnamed::new);
        Errors.expect(errors, "unnamed-reg", "register declared here has no name; store it in a field, use "
                + "reg(\"name\", ...) or call .named(\"name\")");
        Errors.expect(errors, "unnamed-derived", "register declared here has no name");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class UnnamedPort extends Component {
        UnnamedPort() {
            Bool p = in(bool()); // MARK:unnamed-port
            Bool q = out(bool()).named("q");
            q.set(p);
        }
    }

    @Test
    void aPortMustHaveAName() {
        Errors.only(Errors.of(UnnamedPort::new), "unnamed-port", "port declared here has no name; store it in a field "
                + "or call .named()");
    }

    static final class Keywords extends Component {
        final Bool begin = in(bool()); // MARK:kw-field
        final Bool y = out(bool());

        Keywords() {
            Bool w = wire("module", bool()); // MARK:kw-wire
            w.set(begin);
            UInt r = reg("logic", uint(2)).init(0); // MARK:kw-reg
            r.set(r.add(1));
            y.set(w.xor(r.msb()));
        }
    }

    @Test
    void systemVerilogKeywordsAreRejected() {
        List<HdlError> errors = Errors.of(Keywords::new);
        Errors.expect(errors, "kw-field", "'begin' is a reserved SystemVerilog keyword; choose another name");
        Errors.expect(errors, "kw-wire", "'module' is a reserved SystemVerilog keyword");
        Errors.expect(errors, "kw-reg", "'logic' is a reserved SystemVerilog keyword");
        assertEquals(3, errors.size(), Errors.describe(errors));
    }

    static final class Illegal extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Illegal() {
            Bool w = wire("9lives", bool()); // MARK:digit
            Bool v = wire("a-b", bool()); // MARK:dash
            Bool u = wire("größe", bool()); // MARK:non-ascii
            w.set(a);
            v.set(w);
            u.set(v);
            Bool e = a.not().named("has space"); // MARK:expr-name
            y.set(u.and(e));
        }
    }

    @Test
    void namesMustBePlainIdentifiers() {
        List<HdlError> errors = Errors.of(Illegal::new);
        Errors.expect(errors, "digit", "'9lives' is not a legal SystemVerilog identifier; use letters, digits and _");
        Errors.expect(errors, "dash", "'a-b' is not a legal SystemVerilog identifier");
        Errors.expect(errors, "non-ascii", "'größe' is not a legal SystemVerilog identifier");
        Errors.expect(errors, "expr-name", "'has space' is not a legal SystemVerilog identifier");
        assertEquals(4, errors.size(), Errors.describe(errors));
    }

    static final class Duplicates extends Component {
        final Bool a = in(bool()); // MARK:dup-port
        final Bool y = out(bool());

        Duplicates() {
            Bool w1 = wire("x", bool()); // MARK:dup-first
            Bool w2 = wire("x", bool()); // MARK:dup-second
            Bool r = reg("a", bool()).init(false); // MARK:dup-reg
            w1.set(a);
            w2.set(w1);
            r.set(w2);
            y.set(r);
        }
    }

    @Test
    void twoSignalsWithOneNameAreRejected() {
        List<HdlError> errors = Errors.of(Duplicates::new);
        Errors.expect(errors, "dup-second", "two signals in Duplicates are named 'x' (the other is declared at "
                + at("dup-first") + "); rename one");
        Errors.expect(errors, "dup-reg", "are named 'a' (the other is declared at " + at("dup-port") + ")");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class ExpressionNameClash extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8)); // MARK:clash-output
        final UInt z = out(uint(8));

        ExpressionNameClash() {
            UInt s = a.add(1).named("y"); // MARK:clash-expression
            UInt t = a.sub(1).named("t"); // MARK:clash-t1
            UInt u = a.xor(a).named("t"); // MARK:clash-t2
            y.set(s);
            z.set(t.or(u));
        }
    }

    @Test
    void aNamedExpressionMayNotTakeAnotherSignalsName() {
        List<HdlError> errors = Errors.of(ExpressionNameClash::new);
        Errors.expect(errors, "clash-expression", "two signals in ExpressionNameClash are named 'y' (the other is "
                + "declared at " + at("clash-output") + "); rename one");
        Errors.expect(errors, "clash-t2", "are named 't' (the other is declared at " + at("clash-t1") + ")");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class ClockNameClash extends Component {
        final Bool clk = in(bool()); // MARK:clk
        final Bool y = out(bool());

        ClockNameClash() {
            y.set(regNext(clk).named("clk_q"));
        }
    }

    @Test
    void aPortNamedLikeAGeneratedClockPortIsRejected() {
        Errors.only(Errors.of(ClockNameClash::new), "clk", "are named 'clk'");
    }

    static final class Leaf extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Leaf() {
            y.set(a);
        }
    }

    static final class DuplicateInstances extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        DuplicateInstances() {
            Leaf l1 = instance("u", Leaf::new); // MARK:inst-first
            Leaf l2 = instance("u", Leaf::new); // MARK:inst-second
            l1.a.set(a);
            l2.a.set(l1.y);
            y.set(l2.y);
        }
    }

    @Test
    void twoInstancesWithOneNameAreRejected() {
        Errors.only(Errors.of(DuplicateInstances::new), "inst-second", "two instances in DuplicateInstances are named "
                + "'u' (the other is created at " + at("inst-first") + "); rename one");
    }

    static final class InstanceNamedLikeASignal extends Component {
        final Bool a = in(bool()); // MARK:clash-port
        final Bool y = out(bool());

        InstanceNamedLikeASignal() {
            Leaf l = instance("a", Leaf::new); // MARK:clash-instance
            l.a.set(a);
            y.set(l.y);
        }
    }

    @Test
    void anInstanceNamedLikeASignalIsRejected() {
        Errors.only(Errors.of(InstanceNamedLikeASignal::new), "clash-instance", "instance 'a' in "
                + "InstanceNamedLikeASignal has the name of the signal declared at " + at("clash-port") + "; rename one");
    }

    static final class InstanceKeyword extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        InstanceKeyword() {
            Leaf l = instance("always", Leaf::new); // MARK:inst-keyword
            l.a.set(a);
            y.set(l.y);
        }
    }

    @Test
    void instanceNamesAreCheckedLikeSignalNames() {
        Errors.only(Errors.of(InstanceKeyword::new), "inst-keyword", "'always' is a reserved SystemVerilog keyword");
    }

    static final class And extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        And() {
            y.set(a);
        }
    }

    static final class UsesAnd extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        UsesAnd() {
            And first = instance("first", And::new); // MARK:module-keyword
            first.a.set(a);
            And second = instance("second", And::new);
            second.a.set(first.y);
            y.set(second.y);
        }
    }

    @Test
    void aModuleNameThatIsAKeywordIsRejectedOnce() {
        Errors.only(Errors.of(UsesAnd::new), "module-keyword", "the module name 'and' of dev.sue.dsltest.NameCheckTest$And"
                + " is not a usable SystemVerilog identifier (keyword or illegal); rename the class or override "
                + "moduleBaseName()");
    }
}
