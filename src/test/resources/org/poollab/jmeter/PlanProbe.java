import java.io.File;

import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.PropertyIterator;
import org.apache.jmeter.util.JMeterUtils;
import org.apache.jmeter.util.NameUpdater;
import org.apache.jorphan.collections.HashTree;

/**
 * Loads JMeter plans with JMeter's own loader and prints every element, one property per
 * line, for PlanLoadingIT to check. Run by PlanLoadingIT as a single-file source
 * program on the JMeter installation's own jars: {@code PlanProbe <jmeter home> <plan>...}.
 * Output, tab-separated: {@code plan <file>}, {@code element <depth> <class> <listener> <gui class loads>},
 * {@code property <name> <value>} (backslashes, tabs and line breaks escaped).
 */
public class PlanProbe {

	public static void main(String[] args) throws Exception {
		String home = args[0];
		JMeterUtils.setJMeterHome(home);
		JMeterUtils.loadJMeterProperties(home + "/bin/jmeter.properties");
		JMeterUtils.initLocale();
		for (int i = 1; i < args.length; i++) {
			HashTree tree = SaveService.loadTree(new File(args[i]));
			System.out.println("plan\t" + args[i]);
			print(tree, 0);
		}
	}

	private static void print(HashTree tree, int depth) {
		for (Object key : tree.list()) {
			TestElement element = (TestElement) key;
			System.out.println("element\t" + depth + "\t" + element.getClass().getName() + "\t"
					+ (element instanceof SampleListener) + "\t" + guiClassLoads(element));
			PropertyIterator properties = element.propertyIterator();
			while (properties.hasNext()) {
				JMeterProperty property = properties.next();
				System.out.println("property\t" + property.getName() + "\t" + escape(property.getStringValue()));
			}
			print(tree.getTree(key), depth + 1);
		}
	}

	/**
	 * Whether the class the GUI would open the element with exists: a plan can load
	 * headless and still fail in the GUI.
	 */
	private static boolean guiClassLoads(TestElement element) {
		String gui = element.getPropertyAsString(TestElement.GUI_CLASS);
		if (gui.isEmpty()) {
			return true; // JMeter picks the default GUI for the element's class
		}
		return loads(NameUpdater.getCurrentName(SaveService.aliasToClass(gui)));
	}

	private static boolean loads(String name) {
		try {
			Class.forName(name, false, PlanProbe.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

	private static String escape(String value) {
		return (value != null) ? value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
				: "";
	}

}
