package dev.bulwark.jpa;

/** A grant to a queued request, as its JVM's listener is told of it. */
record HandOver(String instance, long requestId, long fencingToken) {}
