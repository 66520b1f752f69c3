package org.poollab.bench.model;

/**
 * A fleet's connection arithmetic on one database: how many replicas fit at a pool size
 * when a rolling deploy runs extra replicas beside them, each replica's share of the
 * connection budget, the rate a replica carries with one replica down, and HikariCP's
 * deadlock floor.
 *
 * @param maxConnections the database's {@code max_connections}
 * @param reservedConnections slots only superusers may take
 * ({@code superuser_reserved_connections} + {@code reserved_connections})
 * @param otherConnections connections other clients hold (Flyway, admin, monitoring)
 * @param surge extra replicas during a rolling deploy
 */
public record Fleet(int maxConnections, int reservedConnections, int otherConnections, Surge surge) {

	/**
	 * Tomcat's default {@code server.tomcat.threads.max}: Tn in the deadlock floor when
	 * the threads are not set.
	 */
	public static final int TOMCAT_DEFAULT_THREADS = 200;

	/**
	 * Kubernetes' {@code maxSurge}: a share of the replicas, rounded up, or a number of
	 * replicas.
	 *
	 * @param percent the share, when {@code replicas} is negative
	 * @param replicas a fixed number of extra replicas, or −1 for a share
	 */
	public record Surge(int percent, int replicas) {

		/** Kubernetes' default for a Deployment: 25 %. */
		public static final Surge KUBERNETES_DEFAULT = percent(25);

		public static Surge percent(int percent) {
			return new Surge(percent, -1);
		}

		public static Surge replicas(int replicas) {
			return new Surge(0, replicas);
		}

		/** The extra replicas for a fleet of this size, rounded up as Kubernetes does. */
		public int extra(int fleetReplicas) {
			return (this.replicas >= 0) ? this.replicas : (int) Math.ceil(fleetReplicas * this.percent / 100.0);
		}

		@Override
		public String toString() {
			return (this.replicas >= 0) ? this.replicas + " replica(s)" : this.percent + " %";
		}

	}

	/** The connections the fleet's pools may hold together. */
	public int budget() {
		return this.maxConnections - this.reservedConnections - this.otherConnections;
	}

	/**
	 * The most replicas that fit with this pool each, counting the surge: the largest N
	 * with (N + surge(N)) × pool within the budget. For a share this is the rounded-up
	 * form of floor(budget / (pool × (1 + surge))).
	 * @return 0 when not even one replica and its surge fit
	 */
	public int maxReplicas(int poolSize) {
		int replicas = 0;
		while ((long) (replicas + 1 + this.surge.extra(replicas + 1)) * poolSize <= budget()) {
			replicas++;
		}
		return replicas;
	}

	/**
	 * The largest pool each of {@code replicas} replicas may have, surge included.
	 * @return 0 when the budget cannot give every replica one connection
	 */
	public int budgetShare(int replicas) {
		return Math.max(0, budget() / (replicas + this.surge.extra(replicas)));
	}

	/**
	 * HikariCP's pool-locking floor ("About Pool Sizing"): Tn × (Cm − 1) + 1 connections,
	 * where Tn request threads each hold Cm connections at once, never deadlocks.
	 * @param requestThreads Tn, e.g. Tomcat's {@code server.tomcat.threads.max}
	 * @param connectionsPerRequest Cm
	 */
	public static int deadlockFloor(int requestThreads, int connectionsPerRequest) {
		return requestThreads * (connectionsPerRequest - 1) + 1;
	}

	/**
	 * The rate each replica carries at the fleet's peak with one replica down (a deploy,
	 * a crash), or all of it when there is one.
	 */
	public static double ratePerReplica(double targetRps, int replicas) {
		return (replicas >= 2) ? targetRps / (replicas - 1) : targetRps;
	}

}
