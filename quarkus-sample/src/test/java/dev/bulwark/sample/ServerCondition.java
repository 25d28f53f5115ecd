package dev.bulwark.sample;

import dev.bulwark.tck.TestServices;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/** Disables a {@link RequiresServer} class whose server {@link TestServices} cannot find. */
final class ServerCondition implements ExecutionCondition {

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return AnnotationSupport.findAnnotation(context.getElement(), RequiresServer.class)
        .map(required -> evaluate(required.value()))
        .orElse(ConditionEvaluationResult.enabled("needs no server"));
  }

  private static ConditionEvaluationResult evaluate(TestServices.Service service) {
    try {
      TestServices.Endpoint endpoint =
          switch (service) {
            case REDIS -> TestServices.redis();
            case POSTGRESQL -> TestServices.postgresql();
            case MARIADB -> TestServices.mariadb();
          };
      return ConditionEvaluationResult.enabled("uses " + endpoint.url());
    } catch (TestAbortedException e) {
      return ConditionEvaluationResult.disabled(e.getMessage());
    }
  }
}
