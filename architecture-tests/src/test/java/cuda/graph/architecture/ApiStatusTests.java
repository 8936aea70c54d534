// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.architecture;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import cuda.graph.architecture.planted.PlantedMaintainedType;
import cuda.graph.architecture.planted.PlantedUnmarkedType;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * Every public top-level type of a package a library module exports says how stable it is with
 * apiguardian's {@code @API} (the annotation JUnit marks its own API with): a status, and {@code
 * since}, the version its Javadoc's {@code @since} names. What each status promises is in
 * docs/DESIGN.md ("Stability"); which families have which is held here:
 *
 * <ul>
 *   <li>EXPERIMENTAL: every public type of {@link #EXPERIMENTAL_PACKAGES} (the optional modules and
 *       their adapters, and the provider side), nested types included; {@link #EXPERIMENTAL_TYPES}
 *       of the core API and each of their nested types, each marked itself; {@link
 *       #EXPERIMENTAL_METHODS} of core types;
 *   <li>MAINTAINED: every other public top-level type of an exported package (the core API).
 * </ul>
 */
class ApiStatusTests {

  /**
   * Exported packages whose every public type, nested ones included, is EXPERIMENTAL: those named,
   * and every package the llm module exports (the module is experimental as a whole).
   */
  static final Set<String> EXPERIMENTAL_PACKAGES =
      withExportsOf(
          "cuda.graph.llm",
          // The optional modules, newer than the core, and the adapters over embeddings.
          "cuda.graph.blas",
          "cuda.graph.nccl",
          "cuda.graph.embeddings",
          "cuda.graph.langchain4j",
          "cuda.graph.spring.ai",
          // The provider side: it follows the driver surface the API needs (CudaDriver gains an
          // entry point, a method every provider must add, when the API binds a driver call).
          "cuda.graph.spi",
          "cuda.graph.spi.support",
          "cuda.graph.testkit",
          "cuda.graph.simulator",
          "cuda.graph.conformance",
          "cuda.graph.conformance.arbitraries",
          "cuda.graph.conformance.kernels");

  private static Set<String> withExportsOf(String module, String... packages) {
    Set<String> all = new TreeSet<>(List.of(packages));
    all.addAll(LibraryModules.exportsOf(module));
    return Set.copyOf(all);
  }

  /** Core types that are EXPERIMENTAL: the graph cache and mapped memory. */
  static final Set<String> EXPERIMENTAL_TYPES =
      Set.of("cuda.graph.GraphCache", "cuda.graph.Buckets", "cuda.graph.MappedHostBuffer");

  /** Methods of MAINTAINED core types that are EXPERIMENTAL, as {@code TYPE.METHOD}. */
  static final Set<String> EXPERIMENTAL_METHODS = Set.of("cuda.graph.Device.allocateMapped");

  @Test
  void everyPublicTopLevelTypeOfAnExportedPackageSaysHowStableItIsAndSinceWhen() {
    Set<String> exported = exportedPackages();
    List<JavaClass> types = publicTypes(ProjectClasses.MAIN, exported);
    assertTrue(
        types.stream().filter(JavaClass::isTopLevelClass).count() > 100,
        "found only " + types.size() + " public types in " + exported);
    Map<Path, TypeJavadocs> sources = new HashMap<>();

    assertEquals(
        List.of(),
        unmarked(types, type -> javadocSince(type, sources)),
        "every public top-level type of an exported package carries"
            + " @API(status = ..., since = \"VERSION\") of org.apiguardian.api, since being the"
            + " version its Javadoc's @since names (docs/DESIGN.md, Stability)");
  }

  @Test
  void theNewerFamiliesAndTheProviderSideAreExperimentalAndTheRestOfTheCoreMaintained() {
    Set<String> exported = exportedPackages();
    assertEquals(
        List.of(),
        statusProblems(
            publicTypes(ProjectClasses.MAIN, exported),
            exported,
            EXPERIMENTAL_PACKAGES,
            EXPERIMENTAL_TYPES,
            EXPERIMENTAL_METHODS),
        "the statuses docs/DESIGN.md (Stability) gives each family");
  }

  @Test
  void theRulesFailOnPlantedTypes() {
    var planted =
        new ClassFileImporter()
            .importClasses(PlantedUnmarkedType.class, PlantedMaintainedType.class);
    String pkg = PlantedUnmarkedType.class.getPackageName();
    List<JavaClass> types = publicTypes(planted, Set.of(pkg));

    assertEquals(
        List.of(
            PlantedMaintainedType.class.getName()
                + ": @API since 0.0.9, but its Javadoc says @since 0.1.0",
            PlantedUnmarkedType.class.getName() + ": no @API"),
        unmarked(types, type -> Optional.of("0.1.0")));
    assertEquals(
        List.of(
            PlantedMaintainedType.class.getName() + " is MAINTAINED, its family EXPERIMENTAL",
            PlantedMaintainedType.class.getName()
                + ".method is MAINTAINED, its family EXPERIMENTAL",
            PlantedUnmarkedType.class.getName()
                + " has no status; the rest of the core API is"
                + " MAINTAINED",
            "no public type named cuda.graph.architecture.planted.Missing"),
        statusProblems(
            types,
            Set.of(pkg),
            Set.of(),
            Set.of(PlantedMaintainedType.class.getName(), pkg + ".Missing"),
            Set.of(PlantedMaintainedType.class.getName() + ".method")));
  }

  /**
   * {@return a line for each top-level type of {@code types} without {@code @API}, and for each
   * type whose {@code @API} says another {@code since} than {@code javadocSince} gives}
   */
  static List<String> unmarked(
      List<JavaClass> types, Function<JavaClass, Optional<String>> javadocSince) {
    List<String> problems = new ArrayList<>();
    for (JavaClass type : types) {
      Optional<API> api = type.tryGetAnnotationOfType(API.class);
      if (api.isEmpty()) {
        if (type.isTopLevelClass()) {
          problems.add(type.getName() + ": no @API");
        }
        continue;
      }
      Optional<String> since = javadocSince.apply(type);
      if (!since.equals(Optional.of(api.get().since()))) {
        problems.add(
            type.getName()
                + ": @API since "
                + api.get().since()
                + ", but its Javadoc says @since "
                + since.orElse("nothing"));
      }
    }
    problems.sort(null);
    return problems;
  }

  /**
   * {@return a line for each type or method of {@code types} whose status is not its family's, and
   * for each name of the families that names nothing}
   */
  static List<String> statusProblems(
      List<JavaClass> types,
      Set<String> exported,
      Set<String> experimentalPackages,
      Set<String> experimentalTypes,
      Set<String> experimentalMethods) {
    List<String> problems = new ArrayList<>();
    Set<String> found = new TreeSet<>();
    for (JavaClass type : types) {
      JavaClass top = topLevel(type);
      Optional<API.Status> own = type.tryGetAnnotationOfType(API.class).map(API::status);
      if (experimentalPackages.contains(type.getPackageName())) {
        expect(problems, type.getName(), effectiveStatus(type), EXPERIMENTAL);
      } else if (experimentalTypes.contains(top.getName())) {
        found.add(top.getName());
        // A nested type says it itself: a reader of its page sees no enclosing type's status.
        expect(problems, type.getName(), own, EXPERIMENTAL);
      } else if (type.isTopLevelClass()) {
        if (own.isEmpty()) {
          problems.add(type.getName() + " has no status; the rest of the core API is MAINTAINED");
        } else {
          expect(problems, type.getName(), own, MAINTAINED);
        }
      }
      for (JavaMethod method : type.getMethods()) {
        String name = type.getName() + "." + method.getName();
        if (experimentalMethods.contains(name)) {
          found.add(name);
          expect(
              problems,
              name,
              method.tryGetAnnotationOfType(API.class).map(API::status),
              EXPERIMENTAL);
        }
      }
    }
    for (String pkg : experimentalPackages) {
      if (!exported.contains(pkg)) {
        problems.add("no exported package " + pkg);
      }
    }
    for (String name : experimentalTypes) {
      if (!found.contains(name)) {
        problems.add("no public type named " + name);
      }
    }
    for (String name : experimentalMethods) {
      if (!found.contains(name)) {
        problems.add("no public method named " + name);
      }
    }
    problems.sort(null);
    return problems;
  }

  private static void expect(
      List<String> problems, String name, Optional<API.Status> status, API.Status family) {
    if (status.isEmpty()) {
      problems.add(name + " has no @API; its family is " + family);
    } else if (status.get() != family) {
      problems.add(name + " is " + status.get() + ", its family " + family);
    }
  }

  /** {@return the status of {@code type}'s own {@code @API}, or of the nearest enclosing type's} */
  private static Optional<API.Status> effectiveStatus(JavaClass type) {
    for (JavaClass c = type; c != null; c = c.getEnclosingClass().orElse(null)) {
      Optional<API> api = c.tryGetAnnotationOfType(API.class);
      if (api.isPresent()) {
        return Optional.of(api.get().status());
      }
    }
    return Optional.empty();
  }

  private static JavaClass topLevel(JavaClass type) {
    JavaClass c = type;
    while (c.getEnclosingClass().isPresent()) {
      c = c.getEnclosingClass().get();
    }
    return c;
  }

  /** {@return the public types, nested ones included, of {@code packages} among {@code classes}} */
  private static List<JavaClass> publicTypes(Iterable<JavaClass> classes, Set<String> packages) {
    List<JavaClass> types = new ArrayList<>();
    for (JavaClass type : classes) {
      if (packages.contains(type.getPackageName()) && SinceTagTests.isPublicApi(type)) {
        types.add(type);
      }
    }
    return types;
  }

  private static Set<String> exportedPackages() {
    Set<String> exported = new TreeSet<>();
    for (ModuleDescriptor module : LibraryModules.descriptors()) {
      module.exports().stream()
          .filter(e -> !e.isQualified())
          .forEach(e -> exported.add(e.source()));
    }
    return exported;
  }

  /** {@return the version the last {@code @since} of {@code type}'s Javadoc names} */
  private static Optional<String> javadocSince(JavaClass type, Map<Path, TypeJavadocs> sources) {
    Path file = SinceTagTests.sourceOf(type);
    Optional<String> javadoc =
        sources
            .computeIfAbsent(file, f -> new TypeJavadocs(RepositoryFiles.text(f)))
            .find(SinceTagTests.namePath(type))
            .javadoc();
    Optional<String> since = Optional.empty();
    if (javadoc.isPresent()) {
      Matcher m = SinceTagTests.SINCE_VERSION.matcher(javadoc.get());
      while (m.find()) {
        since = Optional.of(m.group(1));
      }
    }
    return since;
  }
}
