package org.poollab.cyclefixture.below;

import org.poollab.cyclefixture.Top;

/** Uses the package above it, which uses it: a package cycle through the top package. */
public class Below {

	Top top() {
		return new Top();
	}

}
