/**
 * Where what happens at a limit is reported: {@code LimitEvents} counts it in the limit's {@code
 * LimitStats} and fires events to the application's listeners ({@code Listeners}).
 */
package dev.bulwark.core.event;
