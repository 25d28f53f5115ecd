package dev.bulwark.jpa;

import java.util.function.Function;

/**
 * One operation of a transaction on a bulkhead's or a lock name's requests: the key whose {@link
 * Step} it sees, the request of this JVM it asks about (which learns of a grant from its answer, so
 * its own hand-over is not told to the listener), and its rule.
 *
 * @param key the lock key; empty for a bulkhead
 * @param self the request the operation's caller asks about
 * @param rule decides the answer on the key's step, changing the step as the operation does
 */
record StepOperation<T>(String key, long self, Function<Step, T> rule) {}
