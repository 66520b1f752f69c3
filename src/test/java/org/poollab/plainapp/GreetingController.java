package org.poollab.plainapp;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two endpoints on the pool, written as a team would: no error handling of their own, so
 * a pool timeout reaches Boot's default error page.
 */
@RestController
class GreetingController {

	private final JdbcClient jdbc;

	GreetingController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/greetings")
	List<Greeting> greetings() {
		return this.jdbc.sql("SELECT id, text FROM greeting ORDER BY id").query(Greeting.class).list();
	}

	@PostMapping("/greetings")
	Greeting add(@RequestParam String text) {
		return this.jdbc.sql("INSERT INTO greeting (text) VALUES (:text) RETURNING id, text")
			.param("text", text)
			.query(Greeting.class)
			.single();
	}

	record Greeting(long id, String text) {
	}

}
