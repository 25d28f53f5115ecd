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
 * Services hand the application: bulwark-cdi's startup check and the metrics beans' binding, which
 * Quarkus would run during static init, are turned off for the extension's own.
 */
public class StartAtRuntimeProcessor {

  private static final DotName INITIALIZED = DotName.createSimple(Initialized.class);

  /** The classes whose observers of {@code @Initialized(ApplicationScoped.class)} start it. */
  private static final Set<DotName> STARTING =
      Set.of(
          DotName.createSimple("dev.bulwark.cdi.StartupCheck"),
          DotName.createSimple("dev.bulwark.cdi.MetricsListenerBean"));

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
                && STARTING.contains(context.getMethod().declaringClass().name())) {
              context.veto();
            }
          }
        });
  }
}
