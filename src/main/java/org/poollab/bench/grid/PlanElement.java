package org.poollab.bench.grid;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * One element of a JMeter plan as JMeter saves it (a {@code .jmx} file, JMeter's
 * {@code SaveService} format): the element's tag is its class ({@code HTTPSamplerProxy},
 * {@code ThreadGroup}, {@code HeaderManager}, ...), its properties are child elements
 * named by a {@code name} attribute ({@code stringProp}, {@code boolProp}, ...), and its
 * children follow it in the {@code hashTree} element after it.
 *
 * @param kind the element's tag, e.g. {@code HTTPSamplerProxy}
 * @param name what the plan calls it ({@code testname}), e.g. {@code Find owners}
 * @param enabled false when the plan disables it (and so everything under it)
 * @param xml the element, to read its properties
 * @param children the elements of its {@code hashTree}, in the plan's order
 */
record PlanElement(String kind, String name, boolean enabled, Element xml, List<PlanElement> children) {

	/** The root element of every plan JMeter saves. */
	static final String ROOT = "jmeterTestPlan";

	private static final String TREE = "hashTree";

	PlanElement {
		children = List.copyOf(children);
	}

	/**
	 * The file's root element, read with the JDK's DOM parser: no DTD, no external
	 * entities (a plan has none), and nothing printed on a syntax error.
	 * @throws SAXException when the file is not well-formed XML
	 */
	static Element rootOf(Path file) throws IOException, SAXException {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			factory.setXIncludeAware(false);
			factory.setExpandEntityReferences(false);
			DocumentBuilder builder = factory.newDocumentBuilder();
			builder.setErrorHandler(new ErrorHandler() {

				@Override
				public void warning(SAXParseException ex) {
				}

				@Override
				public void error(SAXParseException ex) throws SAXException {
					throw ex;
				}

				@Override
				public void fatalError(SAXParseException ex) throws SAXException {
					throw ex;
				}

			});
			return builder.parse(file.toFile()).getDocumentElement();
		}
		catch (ParserConfigurationException ex) {
			throw new IllegalStateException("The JDK's XML parser lacks a feature every JDK has", ex);
		}
	}

	/**
	 * The plan's top elements (its {@code TestPlan}), under the root's {@code hashTree}.
	 */
	static List<PlanElement> topOf(Element root) {
		return childElements(root).stream()
			.filter((child) -> child.getTagName().equals(TREE))
			.findFirst()
			.map(PlanElement::tree)
			.orElse(List.of());
	}

	/** The elements of one {@code hashTree}, each with the {@code hashTree} after it. */
	private static List<PlanElement> tree(Element hashTree) {
		List<Element> nodes = childElements(hashTree);
		List<PlanElement> elements = new ArrayList<>();
		for (int i = 0; i < nodes.size(); i++) {
			Element element = nodes.get(i);
			if (element.getTagName().equals(TREE)) {
				continue;
			}
			boolean hasTree = i + 1 < nodes.size() && nodes.get(i + 1).getTagName().equals(TREE);
			elements.add(new PlanElement(element.getTagName(), element.getAttribute("testname"),
					!"false".equals(element.getAttribute("enabled")), element,
					hasTree ? tree(nodes.get(i + 1)) : List.of()));
		}
		return elements;
	}

	/**
	 * A property of this element as written, {@code ""} when it has none: a
	 * {@code stringProp}, {@code boolProp}, {@code intProp} ... by its {@code name}
	 * attribute, or JMeter's long form ({@code <FloatProperty><name>..</name><value>..}),
	 * which it writes for a Throughput Controller's percent.
	 */
	String property(String property) {
		return property(this.xml, property);
	}

	/** Whether a {@code boolProp} of this element is {@code true}. */
	boolean bool(String property) {
		return "true".equals(property(property).strip());
	}

	/**
	 * The {@code elementProp}s of this element's collection property, e.g. the headers of
	 * a Header Manager ({@code HeaderManager.headers}).
	 */
	List<Element> collection(String collection) {
		return collection(this.xml, collection);
	}

	/**
	 * The {@code elementProp}s of a collection in one of this element's element
	 * properties, e.g. a sampler's arguments ({@code HTTPsampler.Arguments},
	 * {@code Arguments.arguments}).
	 */
	List<Element> collection(String holder, String collection) {
		return namedChild(this.xml, "elementProp", holder).map((element) -> collection(element, collection))
			.orElse(List.of());
	}

	private static List<Element> collection(Element owner, String collection) {
		return namedChild(owner, "collectionProp", collection)
			.map((element) -> childElements(element).stream()
				.filter((child) -> child.getTagName().equals("elementProp"))
				.toList())
			.orElse(List.of());
	}

	/** A property of an {@code elementProp} in a collection, {@code ""} when absent. */
	static String property(Element owner, String property) {
		for (Element child : childElements(owner)) {
			if (property.equals(child.getAttribute("name")) && !child.getTagName().equals("elementProp")
					&& !child.getTagName().equals("collectionProp")) {
				return child.getTextContent();
			}
			if (child.getTagName().endsWith("Property")) {
				List<Element> parts = childElements(child);
				boolean named = parts.stream()
					.anyMatch((part) -> part.getTagName().equals("name") && part.getTextContent().equals(property));
				if (named) {
					return parts.stream()
						.filter((part) -> part.getTagName().equals("value"))
						.map(Node::getTextContent)
						.findFirst()
						.orElse("");
				}
			}
		}
		return "";
	}

	private static Optional<Element> namedChild(Element owner, String tag, String name) {
		return childElements(owner).stream()
			.filter((child) -> child.getTagName().equals(tag) && child.getAttribute("name").equals(name))
			.findFirst();
	}

	private static List<Element> childElements(Element parent) {
		List<Element> elements = new ArrayList<>();
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element) {
				elements.add(element);
			}
		}
		return elements;
	}

}
