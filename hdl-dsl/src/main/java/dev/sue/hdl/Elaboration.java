// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.check.Checks;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.timing.DepthAnalysis;
import dev.sue.hdl.timing.DepthReport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

/**
 * The elaboration scope: the one piece of mutable state the DSL keeps outside the IR.
 * It lives in a thread-local only while {@link #elaborate} runs, so independent designs
 * can be elaborated one after another or on different threads.
 *
 * <p>Phases, in order: construction (user code runs), clock-port insertion, naming,
 * checks, and, when the options ask for it, the logic-depth estimate ({@link DepthAnalysis}). Every phase records errors instead of stopping, so the user sees all of
 * them at once.
 */
public final class Elaboration {
    private static final ThreadLocal<Elaboration> CURRENT = new ThreadLocal<>();

    /** Construction state of a component whose constructor is running. */
    static final class Frame {
        final Component component;
        final Deque<Block> blocks = new ArrayDeque<>();
        /** Conditions of the enclosing when/switch branches, innermost last. */
        final Deque<java.util.function.Supplier<Node>> guards = new ArrayDeque<>();
        ClockDomain domain;

        Frame(Component component, ClockDomain domain) {
            this.component = component;
            this.domain = domain;
            blocks.push(component.ir().body());
        }
    }

    private record PendingInstance(Component parent, String name, Location location) {
    }

    private final ElaborationOptions options;
    private final Deque<Frame> frames = new ArrayDeque<>();
    private final List<HdlError> errors = new ArrayList<>();
    private final List<Component> components = new ArrayList<>();
    private final FieldCache fieldCache = new FieldCache();
    private PendingInstance pending;
    private final java.util.Map<Component, List<Data>> declaredData = new java.util.IdentityHashMap<>();
    private int nextNodeId;
    private int nextDataSeq;

    private Elaboration(ElaborationOptions options) {
        this.options = options;
    }

    /** Elaborates, names and checks the design built by {@code topFactory} with default options. */
    public static Design elaborate(Supplier<? extends Component> topFactory) {
        return elaborate(ElaborationOptions.defaults(), topFactory);
    }

    /**
     * Elaborates, names and checks a design.
     *
     * @throws ElaborationException with every error found, each naming the user's source line
     */
    public static Design elaborate(ElaborationOptions options, Supplier<? extends Component> topFactory) {
        if (CURRENT.get() != null) {
            throw new IllegalStateException("elaborate() called while another elaboration runs on this thread");
        }
        Elaboration e = new Elaboration(options);
        CURRENT.set(e);
        try {
            e.pending = new PendingInstance(null, null, Location.here());
            Component top;
            try {
                top = topFactory.get();
            } catch (HdlAbort abort) {
                throw new ElaborationException(e.errors);
            } catch (RuntimeException | StackOverflowError ex) {
                e.errors.add(new HdlError(locationOf(ex), "elaboration stopped by " + ex));
                throw new ElaborationException(e.errors, ex);
            }
            if (top == null) {
                throw new IllegalArgumentException("the top factory returned null");
            }
            e.frames.clear();
            PhaseTimer timer = new PhaseTimer();
            timer.done("construction");
            new ClockPortPass(e).run(top);
            timer.done("clock ports");
            new NamingPass(e).run(e.components);
            timer.done("naming");
            new Checks(e::error).run(e.components, options, e.nextNodeId);
            timer.done("checks");
            if (!e.errors.isEmpty()) {
                throw new ElaborationException(e.errors);
            }
            DepthReport depth = null;
            if (options.estimatesDepth()) {
                depth = DepthAnalysis.run(e.components, e.nextNodeId, Math.max(options.depthPaths(), 1),
                        options.maxDepth());
                timer.done("depth");
                if (!depth.errors().isEmpty()) {
                    throw new ElaborationException(depth.errors());
                }
            }
            return new Design(top, List.copyOf(e.components), e.nextNodeId, options, depth);
        } finally {
            CURRENT.remove();
        }
    }

    private static Location locationOf(Throwable ex) {
        for (StackTraceElement el : ex.getStackTrace()) {
            String cls = el.getClassName();
            if (!cls.startsWith("java.") && !cls.startsWith("jdk.")
                    && (!cls.startsWith("dev.sue.hdl.") || cls.startsWith("dev.sue.hdl.lib."))) {
                return new Location(String.valueOf(el.getFileName()), el.getLineNumber(), null, 0);
            }
        }
        return Location.UNKNOWN;
    }

    static Elaboration current() {
        Elaboration e = CURRENT.get();
        if (e == null) {
            throw new IllegalStateException(
                    "hardware can only be described while Elaboration.elaborate(() -> new Top(...)) runs");
        }
        return e;
    }

    /** The elaboration running on this thread, or null (used where hardware is optional, e.g. literals). */
    static Elaboration currentOrNull() {
        return CURRENT.get();
    }

    public ElaborationOptions options() {
        return options;
    }

    ComponentIr enterComponent(Component c) {
        PendingInstance p = pending;
        pending = null;
        Component parent = p != null ? p.parent() : frames.isEmpty() ? null : frames.peek().component;
        Location location = p != null ? p.location() : creationSite(c);
        ComponentIr ir = new ComponentIr(c, parent, location);
        if (p == null) {
            error(location, c.getClass().getSimpleName() + " was created with 'new' alone; create sub-components with "
                    + "instance(() -> new " + c.getClass().getSimpleName() + "(...)) so the DSL knows their parent");
            // Without instance(...) nothing marks where its constructor ends, so the code after it would be
            // attributed to it and every later line would report confusing follow-up errors: stop here.
            throw new HdlAbort();
        }
        if (p != null && p.name() != null) {
            ir.setInstanceName(p.name(), true);
        }
        return ir;
    }

    /** The line with {@code new C(...)}: the first user frame outside the constructors of {@code c}'s classes. */
    private static Location creationSite(Component c) {
        java.util.Set<String> constructors = new java.util.HashSet<>();
        for (Class<?> k = c.getClass(); k != null && k != Component.class; k = k.getSuperclass()) {
            constructors.add(k.getName());
        }
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !(f.getMethodName().equals("<init>") && constructors.contains(f.getClassName())))
                .filter(f -> !f.getClassName().startsWith("java.") && !f.getClassName().startsWith("jdk.")
                        && !(f.getClassName().startsWith("dev.sue.hdl.") && !f.getClassName().startsWith("dev.sue.hdl.lib.")
                                && !f.getClassName().startsWith("dev.sue.hdl.demo.")))
                .findFirst()
                .map(f -> new Location(String.valueOf(f.getFileName()), f.getLineNumber(), null, 0))
                .orElse(Location.UNKNOWN));
    }

    /** Second half of entering a component: called once its IR exists (the field is set). */
    void pushFrame(Component c) {
        Component parent = c.ir().parent();
        ClockDomain domain = frames.isEmpty() ? options.defaultDomain() : frames.peek().domain;
        frames.push(new Frame(c, domain));
        components.add(c);
        if (parent != null) {
            parent.ir().addChild(c);
        }
    }

    <T extends Component> T instance(String name, Supplier<T> factory) {
        Frame parentFrame = frame();
        int depth = frames.size();
        pending = new PendingInstance(parentFrame.component, name, Location.here());
        T child = factory.get();
        if (pending != null) {
            pending = null;
            error(Location.here(), "instance(...) was given a factory that created no component");
        }
        while (frames.size() > depth) {
            frames.pop();
        }
        return child;
    }

    Frame frame() {
        Frame f = frames.peek();
        if (f == null) {
            throw new IllegalStateException("no component is being constructed: describe hardware inside a Component");
        }
        return f;
    }

    Component component() {
        return frame().component;
    }

    /** Remembers a declared port/wire/register tree so the naming pass can name its leaves. */
    void declared(Component c, Data root) {
        declaredData.computeIfAbsent(c, k -> new ArrayList<>()).add(root);
    }

    List<Data> declaredData(Component c) {
        return declaredData.getOrDefault(c, List.of());
    }

    int newNodeId() {
        return nextNodeId++;
    }

    int newDataSeq() {
        return nextDataSeq++;
    }

    FieldCache fieldCache() {
        return fieldCache;
    }

    void error(Location location, String message) {
        errors.add(new HdlError(location, message));
    }

    /** Records an error at the caller's line. */
    void error(String message) {
        error(Location.here(), message);
    }

    /** Records a refused generation parameter at the caller's line ({@link Hdl#require}). */
    void parameterError(String message) {
        errors.add(new HdlError(Location.here(), message, true));
    }
}
