package org.rocshmem.api.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks deliberately failing fixture classes: they run only when an outer test launches them with
 * configuration parameter {@value #PARAMETER}=true (or inside their own PE JVMs), never in the normal suite.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ScenarioOnly.Condition.class)
@interface ScenarioOnly {
    String PARAMETER = "rocshmem.testing.scenarios";

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            boolean requested = context.getConfigurationParameter(PARAMETER).map(Boolean::parseBoolean).orElse(false);
            return requested || Pe.isChild()
                    ? ConditionEvaluationResult.enabled("launched as a scenario")
                    : ConditionEvaluationResult.disabled("fixture for an outer harness test, not a test itself");
        }
    }
}
