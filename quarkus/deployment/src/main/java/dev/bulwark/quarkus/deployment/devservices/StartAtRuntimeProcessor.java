package dev.bulwark.quarkus.deployment.devservices;

import dev.bulwark.quarkus.devservices.StartAtRuntime;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.ObserverTransformerBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.arc.processor.ObserverTransformer;
import io.quarkus.deployment.annotations.BuildStep;
import jakarta.enterprise.context.Initialized;
import java.util.Set;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.DotName;
import org.jboss.jandex.Type;

/**
 * The engine starts with the runtime config (see {@link StartAtRuntime}), so it sees the URL Dev
 * Services hand the application: bulwark-cdi's startup check, which Quarkus would run during static
 * init, is turned off for the extension's own.
 */
public class StartAtRuntimeProcessor {

  private static final DotName INITIALIZED = DotName.createSimple(Initialized.class);
  private static final DotName STARTUP_CHECK = DotName.createSimple("dev.bulwark.cdi.StartupCheck");

  @BuildStep
  AdditionalBeanBuildItem startAtRuntime() {
    return AdditionalBeanBuildItem.builder()
        .addBeanClass(StartAtRuntime.class)
        .setDefaultScope(BuiltinScope.SINGLETON.getName())
        .setUnremovable()
        .build();
  }

  @BuildStep
  ObserverTransformerBuildItem noStaticInitStart() {
    return new ObserverTransformerBuildItem(
        new ObserverTransformer() {
          @Override
          public boolean appliesTo(Type observedType, Set<AnnotationInstance> qualifiers) {
            return qualifiers.stream().anyMatch(q -> q.name().equals(INITIALIZED));
          }

          @Override
          public void transform(TransformationContext context) {
            if (context.getMethod() != null
                && context.getMethod().declaringClass().name().equals(STARTUP_CHECK)) {
              context.veto();
            }
          }
        });
  }
}
