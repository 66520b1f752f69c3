package org.poollab.bench.results;

/**
 * One second of a measured window, as the generator saw it and the pools' gauges.
 *
 * @param second from the window's start, 0 first
 * @param sent requests started in that second
 * @param ok those that succeeded
 * @param p99Ms their p99 (0 when none succeeded)
 * @param pendingPeak the most requests waiting for a connection on any one instance in
 * that second's scrapes (every 500 ms), -1 when no scrape fell in it
 */
public record Second(int second, long sent, long ok, double p99Ms, int pendingPeak) {
}
