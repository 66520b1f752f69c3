package org.poollab.bench.grid;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.poollab.bench.lab.BenchSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class RequestsTests {

	@TempDir
	Path directory;

	@Test
	void eachRequestHasItsMethodPathAndWeightOneUnlessWritten() {
		Requests requests = Requests.parse(List.of("GET /owners?lastName= ; 3", " GET /vets"), this.directory);

		assertThat(requests.list()).containsExactly(new Requests.Request("GET", "/owners?lastName=", 3, null),
				new Requests.Request("GET", "/vets", 1, null));
		assertThat(requests.label()).isEqualTo("GET /owners?lastName= x3, GET /vets x1");
	}

	@Test
	void aBodyFileIsReadRelativeToTheDirectory() throws Exception {
		Files.writeString(this.directory.resolve("owner.json"), "{\"lastName\":\"Davis\"}");

		Requests requests = Requests.parse(List.of("POST /owners @owner.json ; 2"), this.directory);

		assertThat(requests.list())
			.containsExactly(new Requests.Request("POST", "/owners", 2, "{\"lastName\":\"Davis\"}"));
		assertThat(requests.gets()).isEmpty();
	}

	@Test
	void thePlanGetsEveryRequestOnALineOfItsOwnAndEachBodyAsAPropertyOfItsOwn() throws Exception {
		Files.writeString(this.directory.resolve("a.json"), "{\"a\":1}");
		Requests requests = Requests.parse(List.of("GET /vets ; 3", "PUT /owners/1 @a.json", "DELETE /owners/2"),
				this.directory);

		assertThat(requests.properties())
			.containsEntry("requests", "GET 3 0 /vets\nPUT 1 1 /owners/1\nDELETE 1 0 /owners/2")
			.containsEntry("body1", "{\"a\":1}")
			.hasSize(2);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			GET owners            | the path owners does not start with /
			PATCH /owners/1       | PATCH is not a method the lab sends (DELETE, GET, POST, PUT)
			get /owners           | get is not a method the lab sends
			POST /owners @nope.json | does not exist
			GET /owners @a.json   | a body goes with POST or PUT, not GET
			GET /owners ; 0       | its weight 0 is not a whole number from 1 to 1000
			GET /owners ; many    | its weight many is not a whole number from 1 to 1000
			GET                   | write METHOD /path
			POST /owners owner.json | owner.json is not a body file (write @file)
			""")
	void aBadRequestIsRefusedInOneLineNamingItAndWhatIsAllowed(String written, String why) throws Exception {
		Files.writeString(this.directory.resolve("a.json"), "{}");

		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("GET /vets", written), this.directory))
			.withMessageStartingWith("bench.requests=" + written + " is not allowed: ")
			.withMessageContaining(why)
			.withMessageContaining(Requests.ALLOWED)
			.withMessageEndingWith("Nothing was started.")
			.withMessageNotContaining("\n");
	}

	@Test
	void aMissingBodyFileIsNamedWithItsFullPath() {
		assertThatExceptionOfType(BenchSettingException.class)
			.isThrownBy(() -> Requests.parse(List.of("POST /owners @owner.json"), this.directory))
			.withMessageContaining(
					"the body file " + this.directory.resolve("owner.json").toAbsolutePath() + " does not exist");
	}

}
