package dev.bulwark.it.payara.app;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application of the WAR deployed on Payara Micro: every resource under /api. */
@ApplicationPath("/api")
public class BulwarkApplication extends Application {}
