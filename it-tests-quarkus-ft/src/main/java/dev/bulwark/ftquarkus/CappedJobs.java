package dev.bulwark.ftquarkus;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Bulkhead;

/**
 * A class-level {@code @Bulkhead} over a method the class only inherits: FT caps {@code run} of
 * this bean at 12, and config makes that cap cluster-wide.
 */
@ApplicationScoped
@Bulkhead(12)
public class CappedJobs extends PlainJobs {}
