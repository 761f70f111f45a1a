package org.rocshmem.api.typed;

import java.lang.reflect.Array;
import java.util.Arrays;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.Context;
import org.rocshmem.api.SymmetricArray;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.testsupport.Expect;

/**
 * Test-side handle on a typed view of any C type, so one test body covers all 23 types: values travel as
 * {@code long} and are converted to the view's Java element type (truncated to its width, as a C cast would).
 * The calls go to the view's public methods by reflection, so the test also proves the methods exist with the
 * documented signatures for every view class.
 */
public final class TypedView {
    public final SymmetricArray view;
    public final CType type;
    final Class<?> element;

    private TypedView(SymmetricArray view) {
        this.view = view;
        this.type = view.type();
        this.element = type.elementType();
    }

    /** The whole buffer as a view of C type {@code type}. */
    public static TypedView of(SymmetricBuffer buffer, CType type) {
        Class<?> e = type.elementType();
        SymmetricArray view = e == byte.class ? buffer.asBytes(type) : e == short.class ? buffer.asShorts(type)
                : e == int.class ? buffer.asInts(type) : e == long.class ? buffer.asLongs(type)
                : e == float.class ? buffer.asFloats() : buffer.asDoubles();
        return new TypedView(view);
    }

    public TypedView slice(long from, long count) {
        return new TypedView(view.slice(from, count));
    }

    public TypedView withContext(Context ctx) {
        return new TypedView((SymmetricArray) call("withContext", new Class<?>[] {Context.class}, ctx));
    }

    public long length() {
        return view.length();
    }

    // ---- value conversion

    /** What {@code value} becomes after a round trip through this element type. */
    public long normalize(long value) {
        return fromElement(toElement(value));
    }

    public long[] normalize(long[] values) {
        return Arrays.stream(values).map(this::normalize).toArray();
    }

    Object toElement(long value) {
        if (element == byte.class) {
            return (byte) value;
        } else if (element == short.class) {
            return (short) value;
        } else if (element == int.class) {
            return (int) value;
        } else if (element == long.class) {
            return value;
        } else if (element == float.class) {
            return (float) value;
        }
        return (double) value;
    }

    static long fromElement(Object boxed) {
        if (boxed instanceof Float f) {
            return (long) f.floatValue();
        } else if (boxed instanceof Double d) {
            return (long) d.doubleValue();
        }
        return ((Number) boxed).longValue();
    }

    Object array(long[] values) {
        Object array = Array.newInstance(element, values.length);
        for (int i = 0; i < values.length; i++) {
            Array.set(array, i, toElement(values[i]));
        }
        return array;
    }

    Object newArray(int length) {
        return Array.newInstance(element, length);
    }

    static long[] longs(Object array) {
        long[] out = new long[Array.getLength(array)];
        for (int i = 0; i < out.length; i++) {
            out[i] = fromElement(Array.get(array, i));
        }
        return out;
    }

    Class<?> arrayClass() {
        return newArray(0).getClass();
    }

    // ---- host copies

    public void copyFrom(long[] values) {
        call("copyFrom", new Class<?>[] {arrayClass()}, array(values));
    }

    public long[] read() {
        return longs(call("toArray", new Class<?>[0]));
    }

    // ---- RMA

    /** put/get/putNbi/getNbi with a local view. */
    void transfer(String method, int pe, TypedView local) {
        call(method, new Class<?>[] {int.class, view.getClass()}, pe, local.view);
    }

    /** put/get/putNbi/getNbi with a whole array; returns the array (filled, for the gets). */
    Object transferArray(String method, int pe, Object array) {
        call(method, new Class<?>[] {int.class, arrayClass()}, pe, array);
        return array;
    }

    Object transferArray(String method, int pe, Object array, int offset) {
        call(method, new Class<?>[] {int.class, arrayClass(), int.class}, pe, array, offset);
        return array;
    }

    void p(int pe, long index, long value) {
        call("p", new Class<?>[] {int.class, long.class, element}, pe, index, toElement(value));
    }

    long g(int pe, long index) {
        return fromElement(call("g", new Class<?>[] {int.class, long.class}, pe, index));
    }

    // ---- atomics: name without the "atomic" prefix, e.g. "FetchAdd"; values travel as long

    boolean hasMethod(String name) {
        return Arrays.stream(view.getClass().getMethods()).anyMatch(m -> m.getName().equals(name));
    }

    /** Calls {@code atomic<op>(pe, index, values...)}; returns the fetched value, or 0 for a non-fetching op. */
    long atomic(String op, int pe, long index, long... values) {
        Class<?>[] types = new Class<?>[2 + values.length];
        Object[] args = new Object[2 + values.length];
        types[0] = int.class;
        types[1] = long.class;
        args[0] = pe;
        args[1] = index;
        for (int i = 0; i < values.length; i++) {
            types[2 + i] = element;
            args[2 + i] = toElement(values[i]);
        }
        Object result = call("atomic" + op, types, args);
        return result == null ? 0 : fromElement(result);
    }

    // ---- waits

    void waitUntil(long index, Compare cmp, long value) {
        call("waitUntil", new Class<?>[] {long.class, Compare.class, element}, index, cmp, toElement(value));
    }

    boolean test(long index, Compare cmp, long value) {
        return (Boolean) call("test", new Class<?>[] {long.class, Compare.class, element}, index, cmp,
                toElement(value));
    }

    void waitUntilAll(int[] status, Compare cmp, long value) {
        call("waitUntilAll", new Class<?>[] {int[].class, Compare.class, element}, status, cmp, toElement(value));
    }

    long waitUntilAny(int[] status, Compare cmp, long value) {
        return (Long) call("waitUntilAny", new Class<?>[] {int[].class, Compare.class, element}, status, cmp,
                toElement(value));
    }

    long[] waitUntilSome(int[] status, Compare cmp, long value) {
        long[] indices = new long[(int) length()];
        long n = (Long) call("waitUntilSome", new Class<?>[] {long[].class, int[].class, Compare.class, element},
                indices, status, cmp, toElement(value));
        return Arrays.copyOf(indices, (int) n);
    }

    void waitUntilAllVector(int[] status, Compare cmp, long[] values) {
        call("waitUntilAllVector", new Class<?>[] {int[].class, Compare.class, arrayClass()}, status, cmp,
                array(values));
    }

    long waitUntilAnyVector(int[] status, Compare cmp, long[] values) {
        return (Long) call("waitUntilAnyVector", new Class<?>[] {int[].class, Compare.class, arrayClass()}, status,
                cmp, array(values));
    }

    long[] waitUntilSomeVector(int[] status, Compare cmp, long[] values) {
        long[] indices = new long[(int) length()];
        long n = (Long) call("waitUntilSomeVector",
                new Class<?>[] {long[].class, int[].class, Compare.class, arrayClass()}, indices, status, cmp,
                array(values));
        return Arrays.copyOf(indices, (int) n);
    }

    /** Invokes a public method of the view; an exception it throws is rethrown as is. */
    Object call(String name, Class<?>[] types, Object... args) {
        return Expect.invoke(view, name, types, args);
    }

    @Override
    public String toString() {
        return type + " " + view;
    }
}
