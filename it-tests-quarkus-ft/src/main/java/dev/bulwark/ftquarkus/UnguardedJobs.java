package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;

/** Inherits the same method as {@link CappedJobs}, with no fault tolerance annotation at all. */
@ApplicationScoped
public class UnguardedJobs extends PlainJobs {}
