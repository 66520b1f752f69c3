package org.poollab.bench.grid;

/** PLACEHOLDER until branch i45scale lands (its TimeScale replaces this one). */
public record TimeScale(int factor, double overheadMs) {

	public static final TimeScale NONE = new TimeScale(1, 0);

	public boolean slowed() {
		return this.factor > 1;
	}

}
