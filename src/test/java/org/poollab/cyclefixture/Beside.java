package org.poollab.cyclefixture;

/** Uses {@link Top}, which uses it: a two-way pair in one package. */
class Beside {

	Top top() {
		return new Top();
	}

}
