package dev.bulwark.faulttolerance;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedRateLimit;
import dev.bulwark.cdi.MappedLimits;
import jakarta.decorator.Decorator;
import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.BuildCompatibleExtension;
import jakarta.enterprise.inject.build.compatible.spi.ClassConfig;
import jakarta.enterprise.inject.build.compatible.spi.Enhancement;
import jakarta.enterprise.inject.build.compatible.spi.MethodConfig;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.SkipIfPortableExtensionPresent;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.lang.model.AnnotationTarget;
import jakarta.enterprise.lang.model.declarations.ClassInfo;
import jakarta.enterprise.lang.model.declarations.MethodInfo;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import java.lang.annotation.Annotation;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * The bridge on Quarkus (skipped where the portable {@link FaultToleranceBridge} runs). Config
 * cannot be read at build time, so it adds Bulwark's binding wherever MicroProfile FT guards a
 * method with {@code @Bulkhead} (or SmallRye's {@code @RateLimit}) and no Bulwark binding of that
 * kind is there, and hands the bean classes to {@link StartupMapping}, which decides from config
 * when the application starts which of them are cluster-wide; Bulwark runs the others unguarded
 * (see {@link MappedLimits}).
 *
 * <p>A binding goes where it reaches exactly the methods FT guards: on the method for an annotation
 * on a method the class declares (its subclasses inherit both), and on the class for a class-level
 * annotation, which FT applies to every method of the class, inherited ones included. Never on an
 * inherited method: ArC would add it to the superclass's method, and so to every other subclass,
 * annotated or not.
 */
@SkipIfPortableExtensionPresent(FaultToleranceBridge.class)
public class FaultToleranceBuildBridge implements BuildCompatibleExtension {

  private final Set<String> guarding = new LinkedHashSet<>();
  private final Set<String> beans = new HashSet<>();

  /**
   * The classes and methods this bridge gave a Bulwark binding. The container shows them carrying
   * it to every class enhanced later, which must not take it for one the user wrote: a subclass
   * enhanced after the superclass whose method this bridge bound would look guarded by Bulwark's
   * own binding and go unmapped, so that the binding's defaults applied to it instead of FT's.
   */
  private final Set<String> added = new HashSet<>();

  /** Every class: one that inherits a class-level annotation carries none of its own. */
  @Enhancement(types = Object.class, withSubtypes = true)
  public void bind(ClassConfig type) {
    ClassInfo info = type.info();
    if (info.isInterface()
        || info.isAnnotation()
        || info.hasAnnotation(Interceptor.class)
        || info.hasAnnotation(Decorator.class)) {
      return;
    }
    if (bind(type, Bulkhead.class.getName(), DistributedBulkhead.class, BindingLiterals.BULKHEAD)
        | bind(
            type,
            FaultToleranceBridge.SMALLRYE_RATE_LIMIT,
            DistributedRateLimit.class,
            BindingLiterals.RATE_LIMIT)) {
      guarding.add(info.name());
    }
  }

  /** Only bean classes are guarded: FT, too, intercepts nothing else. */
  @Registration(types = Object.class)
  public void collect(BeanInfo bean) {
    if (bean.isClassBean()) {
      beans.add(bean.declaringClass().name());
    }
  }

  @Synthesis
  public void register(SyntheticComponents components) {
    String[] classes = guarding.stream().filter(beans::contains).toArray(String[]::new);
    if (classes.length > 0) {
      components
          .addBean(MappedLimits.class)
          .type(MappedLimits.class)
          .scope(Singleton.class)
          .withParam(StartupMappingCreator.CLASSES, classes)
          .createWith(StartupMappingCreator.class);
    }
  }

  /**
   * Adds {@code binding} where FT's {@code annotation} guards a method of {@code type}; whether it
   * guards any.
   */
  private boolean bind(
      ClassConfig type,
      String annotation,
      Class<? extends Annotation> bulwarkBinding,
      Annotation binding) {
    ClassInfo info = type.info();
    if (inheritsOwn(info, bulwarkBinding)) {
      return false; // Bulwark's own binding on the class wins over every FT annotation there
    }
    boolean onClass = inherits(info, annotation);
    if (onClass) {
      type.addAnnotation(binding);
      added.add(key(info, bulwarkBinding));
    }
    boolean guards = false;
    for (MethodConfig method : type.methods()) {
      MethodInfo declared = method.info();
      if (!intercepted(declared) || ownBinding(declared, bulwarkBinding)) {
        continue;
      }
      if (named(declared, annotation)) {
        if (declared.declaringClass().name().equals(info.name())) {
          method.addAnnotation(binding);
          added.add(key(declared, bulwarkBinding));
        }
        guards = true;
      } else {
        guards |= onClass;
      }
    }
    return guards;
  }

  private static boolean intercepted(MethodInfo method) {
    int modifiers = method.modifiers();
    return !Modifier.isPrivate(modifiers)
        && !Modifier.isStatic(modifiers)
        && !method.isConstructor()
        && !method.declaringClass().name().equals(Object.class.getName());
  }

  /** Bulwark's binding on the method, written by the user rather than added by this bridge. */
  private boolean ownBinding(MethodInfo method, Class<? extends Annotation> bulwarkBinding) {
    return named(method, bulwarkBinding.getName()) && !added.contains(key(method, bulwarkBinding));
  }

  /**
   * Bulwark's binding on the class or a superclass, written by the user. The container shows a
   * class the {@code @Inherited} bindings of its superclasses, so the binding belongs to the
   * topmost class of the run that shows it.
   */
  private boolean inheritsOwn(ClassInfo type, Class<? extends Annotation> bulwarkBinding) {
    String name = bulwarkBinding.getName();
    for (ClassInfo c = type; c != null; c = c.superClassDeclaration()) {
      ClassInfo superClass = c.superClassDeclaration();
      if (named(c, name) && (superClass == null || !named(superClass, name))) {
        return !added.contains(key(c, bulwarkBinding));
      }
    }
    return false;
  }

  private static String key(ClassInfo type, Class<? extends Annotation> bulwarkBinding) {
    return bulwarkBinding.getName() + " on " + type.name();
  }

  private static String key(MethodInfo method, Class<? extends Annotation> bulwarkBinding) {
    return bulwarkBinding.getName()
        + " on "
        + method.declaringClass().name()
        + "#"
        + method.name()
        + method.parameters().stream()
            .map(parameter -> parameter.type().toString())
            .collect(Collectors.joining(",", "(", ")"));
  }

  /**
   * The annotation on the class or a superclass (both FT's and Bulwark's are {@code @Inherited}).
   */
  private static boolean inherits(ClassInfo type, String annotation) {
    for (ClassInfo c = type; c != null; c = c.superClassDeclaration()) {
      if (named(c, annotation)) {
        return true;
      }
    }
    return false;
  }

  private static boolean named(AnnotationTarget target, String annotation) {
    return target.hasAnnotation(found -> found.name().equals(annotation));
  }
}
