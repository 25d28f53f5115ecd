package dev.bulwark;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of a {@link DistributedLock} method as (part of) the locked resource's key. The
 * key is {@code String.valueOf(argument)}; several marked parameters are joined in order. Without
 * any, the method locks the whole name.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface LockKey {}
