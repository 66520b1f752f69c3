package org.poollab.cyclefixture;

import org.poollab.cyclefixture.below.Below;

/**
 * A cycle for the cycle rules to find ({@code StageOrderTests}): with both neighbours.
 */
public class Top {

	Beside beside() {
		return new Beside();
	}

	Below below() {
		return new Below();
	}

	/** Uses its outer class: no cycle, a nested class counts as its outer class. */
	static final class Inner {

		Top top() {
			return new Top();
		}

	}

}
