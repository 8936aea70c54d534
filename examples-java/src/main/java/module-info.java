module example.saxpy {
  requires cuda.graph;
}
