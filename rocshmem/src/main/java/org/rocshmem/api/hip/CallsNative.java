package org.rocshmem.api.hip;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the rocSHMEM host functions a method of this API calls, so that coverage of the library is provable:
 * a test collects these names from every public method and compares them with the manifest's defined host
 * functions (names starting with {@code hip} are HIP functions, counted apart: the module and launch calls). A typed method that dispatches on the view's C type lists every function it may call (for example
 * {@code rocshmem_long_p} and {@code rocshmem_ctx_long_p}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface CallsNative {
    /** rocSHMEM function names, exactly as the C++ header spells them. */
    String[] value();
}
