package org.poollab.bench.deciding;

import java.util.List;

import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Host;

/**
 * One topology's grid as {@link Recommender} judges it: what every answer about it cites
 * (the host and database it was measured on) and the caveats gathered on the way, which
 * every answer carries whatever its verdict.
 *
 * @param grid the topology's cells
 * @param host the machine the lab ran on
 * @param database the database the pools connected to
 * @param caveats what a careful reader should know, in the order found; added to while
 * the grid is judged
 */
record TopologyCase(TopologyGrid grid, Host host, DatabaseFacts database, List<String> caveats) {

}
