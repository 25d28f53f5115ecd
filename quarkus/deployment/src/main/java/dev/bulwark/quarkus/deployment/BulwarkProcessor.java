package dev.bulwark.quarkus.deployment;

import dev.bulwark.cdi.DeclaredLimits;
import dev.bulwark.cdi.GuardedClasses;
import dev.bulwark.cdi.InterceptorPlacement;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.quarkus.DeclaredLimitsFromBuild;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.DotName;

/**
 * The build steps of Bulwark's Quarkus extension. They do what bulwark-cdi's build-compatible
 * extension does elsewhere (which stands aside when this extension is present), and more, since a
 * Quarkus build step sees the whole index: the guarded classes are checked at build time, so an
 * invalid literal annotation fails the build.
 */
class BulwarkProcessor {

  static final String FEATURE = "bulwark";

  private static final DotName PRIORITY = DotName.createSimple(Priority.class);

  @BuildStep
  FeatureBuildItem feature() {
    return new FeatureBuildItem(FEATURE);
  }

  @BuildStep
  GuardedClassesBuildItem guardedClasses(BeanArchiveIndexBuildItem beanArchive) {
    return new GuardedClassesBuildItem(GuardedClassScan.scan(beanArchive.getIndex()));
  }

  /** The declared limits, resolved when the application starts, with its runtime config. */
  @BuildStep
  SyntheticBeanBuildItem declaredLimits(GuardedClassesBuildItem guarded) {
    return SyntheticBeanBuildItem.configure(DeclaredLimits.class)
        .identifier(FEATURE)
        .scope(Singleton.class)
        .unremovable()
        .param(DeclaredLimitsFromBuild.CLASSES, guarded.names().toArray(String[]::new))
        .creator(DeclaredLimitsFromBuild.class)
        .done();
  }

  /** Bulwark's interceptors inside MicroProfile FT's, wherever the build's config put FT's. */
  @BuildStep
  void placeInterceptors(BuildProducer<AnnotationsTransformerBuildItem> transformers) {
    for (Map.Entry<String, Integer> placed : InterceptorPlacement.byClassName().entrySet()) {
      AnnotationInstance priority =
          AnnotationInstance.builder(PRIORITY).value(placed.getValue()).build();
      transformers.produce(
          new AnnotationsTransformerBuildItem(
              AnnotationTransformation.forClasses()
                  .whenClass(DotName.createSimple(placed.getKey()))
                  .transform(
                      context -> {
                        context.remove(annotation -> annotation.name().equals(PRIORITY));
                        context.add(priority);
                      })));
    }
  }

  /**
   * Fails the build for what is wrong whatever the config: a non-positive literal, a bad name, a
   * return type Bulwark cannot hold to completion, a stray {@code @LockKey}, one name declared with
   * different literal values. The rules are bulwark-cdi's, which the portable extension applies
   * when Weld deploys.
   */
  @BuildStep
  void checkDeclarations(
      GuardedClassesBuildItem guarded,
      ValidationPhaseBuildItem validationPhase,
      BuildProducer<ValidationErrorBuildItem> errors) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<Class<?>> classes = new ArrayList<>();
    for (String name : guarded.names()) {
      try {
        classes.add(Class.forName(name, false, loader));
      } catch (ClassNotFoundException | LinkageError e) {
        // a class the build cannot load is checked when the application starts
      }
    }
    List<Throwable> problems = new ArrayList<>();
    for (String problem : GuardedClasses.problems(classes, ConfigLookup.empty())) {
      problems.add(new DeploymentException(problem));
    }
    if (!problems.isEmpty()) {
      errors.produce(new ValidationErrorBuildItem(problems));
    }
  }
}
