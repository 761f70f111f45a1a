package org.rocshmem.api.testing;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Implements {@link MultiPe}. In the orchestrating JVM it replaces the test body by a multi-JVM run
 * ({@link MultiPeRun}) and skips the lifecycle methods that belong to the PEs; inside a PE JVM
 * ({@link Pe#isChild()}) it lets everything run normally.
 */
public final class MultiPeExtension implements InvocationInterceptor {

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext context) throws Throwable {
        Optional<MultiPe> spec = spec(context);
        if (Pe.isChild() || spec.isEmpty()) {
            invocation.proceed();
            return;
        }
        invocation.skip();
        new MultiPeRun(spec.get(), context.getRequiredTestClass(), invocationContext.getExecutable()).runAndVerify();
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                             ReflectiveInvocationContext<Method> invocationContext,
                                             ExtensionContext context) throws Throwable {
        if (!Pe.isChild() && spec(context).isPresent()) {
            throw new ExtensionConfigurationException("@MultiPe supports plain @Test methods only, not templates"
                    + " such as @ParameterizedTest/@RepeatedTest: " + invocationContext.getExecutable());
        }
        invocation.proceed();
    }

    /** @BeforeEach/@AfterEach prepare PE state (e.g. symmetric memory), so only the PEs run them. */
    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation,
                                          ReflectiveInvocationContext<Method> invocationContext,
                                          ExtensionContext context) throws Throwable {
        proceedUnlessOrchestrating(invocation, spec(context).isPresent());
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation,
                                         ReflectiveInvocationContext<Method> invocationContext,
                                         ExtensionContext context) throws Throwable {
        proceedUnlessOrchestrating(invocation, spec(context).isPresent());
    }

    /** Only a class-level @MultiPe makes every test multi-PE, so only then do @BeforeAll/@AfterAll belong to PEs. */
    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation,
                                         ReflectiveInvocationContext<Method> invocationContext,
                                         ExtensionContext context) throws Throwable {
        proceedUnlessOrchestrating(invocation, classSpec(context).isPresent());
    }

    @Override
    public void interceptAfterAllMethod(Invocation<Void> invocation,
                                        ReflectiveInvocationContext<Method> invocationContext,
                                        ExtensionContext context) throws Throwable {
        proceedUnlessOrchestrating(invocation, classSpec(context).isPresent());
    }

    private static void proceedUnlessOrchestrating(Invocation<Void> invocation, boolean multiPe) throws Throwable {
        if (multiPe && !Pe.isChild()) {
            invocation.skip();
        } else {
            invocation.proceed();
        }
    }

    private static Optional<MultiPe> spec(ExtensionContext context) {
        Optional<MultiPe> onMethod = context.getTestMethod()
                .flatMap(method -> AnnotationSupport.findAnnotation(method, MultiPe.class));
        return onMethod.isPresent() ? onMethod : classSpec(context);
    }

    private static Optional<MultiPe> classSpec(ExtensionContext context) {
        return context.getTestClass().flatMap(type -> AnnotationSupport.findAnnotation(type, MultiPe.class));
    }
}
