package org.poollab.bench.lab;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgramsTests {

	@Test
	void findsAProgramEveryLinuxHasAndLeavesOutOneATestSaysIsMissing() {
		Programs installed = Programs.installed();
		assertThat(installed.find("sh")).hasValueSatisfying((sh) -> assertThat(sh).isExecutable());
		assertThat(installed.without("sh").find("sh")).isEmpty();
		assertThat(installed.without("nginx").find("sh")).isPresent();
	}

	@Test
	void aProgramThatIsNowhereIsNotFound() {
		assertThat(Programs.installed().find("poollab-no-such-program")).isEmpty();
	}

}
