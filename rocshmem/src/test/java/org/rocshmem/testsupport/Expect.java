package org.rocshmem.testsupport;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.function.Executable;

/** Assertions shared by the API tests. */
public final class Expect {
    private Expect() {
    }

    /** {@code call} throws {@code type} with a message containing {@code expectedText}. */
    public static void fails(Class<? extends Throwable> type, String expectedText, Executable call) {
        Throwable thrown = assertThrows(type, call);
        assertTrue(thrown.getMessage() != null && thrown.getMessage().contains(expectedText),
                "expected '" + expectedText + "' in: " + thrown.getMessage());
    }

    /** Calls a public method by name and exact parameter types; what it throws is rethrown as is. */
    public static Object invoke(Object target, String name, Class<?>[] types, Object... args) {
        Method method;
        try {
            method = target.getClass().getMethod(name, types);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(target.getClass().getSimpleName() + " has no method " + name
                    + Arrays.toString(types), e);
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e.getCause());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
