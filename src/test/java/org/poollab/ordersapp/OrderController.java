package org.poollab.ordersapp;

import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An order page as many services build one: the order, then its lines, then, for orders
 * with a customer note, the customer, each statement on a connection of its own (no
 * transaction spans them), so a request takes the pool two or three times. An archived
 * order's lines come from {@code archived_order_lines}, which is slow (the migration says
 * why).
 */
@RestController
class OrderController {

	private final JdbcClient jdbc;

	OrderController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/orders/{id}")
	OrderPage order(@PathVariable long id) {
		Order order = this.jdbc.sql("SELECT id, customer_id, archived, noted FROM customer_order WHERE id = :id")
			.param("id", id)
			.query(Order.class)
			.single();
		List<Line> lines = this.jdbc
			.sql(order.archived() ? "SELECT item, quantity FROM archived_order_lines(:id)"
					: "SELECT item, quantity FROM order_line WHERE order_id = :id ORDER BY id")
			.param("id", id)
			.query(Line.class)
			.list();
		String customer = order.noted() ? this.jdbc.sql("SELECT name FROM customer WHERE id = :id")
			.param("id", order.customerId())
			.query(String.class)
			.single() : null;
		return new OrderPage(order.id(), customer, lines);
	}

	record Order(long id, long customerId, boolean archived, boolean noted) {
	}

	record Line(String item, int quantity) {
	}

	record OrderPage(long id, String customer, List<Line> lines) {
	}

}
