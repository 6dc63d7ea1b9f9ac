// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reflection over hardware-carrying fields, computed once per class and elaboration.
 * Field order from reflection is unspecified, so callers order by the values' creation order.
 */
public final class FieldCache {
    private final Map<Class<?>, List<Field>> cache = new HashMap<>();

    /** Non-static fields declared by {@code cls} and its superclasses up to (excluding) {@code stop}. */
    public List<Field> fields(Class<?> cls, Class<?> stop) {
        return cache.computeIfAbsent(cls, c -> {
            List<Field> out = new ArrayList<>();
            for (Class<?> k = c; k != null && k != stop && k != Object.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic() || f.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                    } catch (RuntimeException inaccessible) {
                        continue;
                    }
                    out.add(f);
                }
            }
            return out;
        });
    }

    public static Object read(Field f, Object owner) {
        try {
            return f.get(owner);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read field " + f, e);
        }
    }
}
