package org.poollab.bench.grid;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PlanVariablesTests {

	@Test
	void aVariableMayUseOneDefinedBeforeIt() {
		PlanVariables variables = PlanVariables
			.of(List.of(Map.entry("base", "/api"), Map.entry("owners", "${base}/owners")));

		assertThat(variables.resolve("${owners}?lastName=${base}"))
			.isEqualTo(new PlanVariables.Resolved("/api/owners?lastName=/api", List.of()));
	}

	@Test
	void aFunctionOrAVariableTheLabDoesNotKnowStaysAsWrittenAndIsNamed() {
		PlanVariables variables = PlanVariables.of(List.of(Map.entry("id", "${__Random(1,9)}")));

		assertThat(variables.resolve("/owners/${id}/pets/${__P(pet,${id})}/${visit}"))
			.isEqualTo(new PlanVariables.Resolved("/owners/${id}/pets/${__P(pet,${id})}/${visit}",
					List.of("${id}", "${__P(pet,${id})}", "${visit}")));
	}

	@Test
	void anUnclosedReferenceIsTextAsJMeterSendsIt() {
		assertThat(PlanVariables.of(List.of()).resolve("/owners/${id"))
			.isEqualTo(new PlanVariables.Resolved("/owners/${id", List.of()));
	}

}
