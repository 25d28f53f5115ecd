package dev.bulwark.core.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Reads an annotation's members, or the annotation type's defaults when there is no instance. */
final class AnnotationMembers {

  private final Class<? extends Annotation> type;
  private final Annotation instance;

  AnnotationMembers(Class<? extends Annotation> type, Annotation instance) {
    this.type = type;
    this.instance = instance;
  }

  <T> T get(String member, Class<T> valueType) {
    try {
      Method accessor = type.getMethod(member);
      Object value = instance == null ? accessor.getDefaultValue() : accessor.invoke(instance);
      return valueType.cast(value);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException(type.getSimpleName() + " has no member " + member, e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Cannot read " + type.getSimpleName() + "." + member, e);
    }
  }

  boolean declared() {
    return instance != null;
  }
}
